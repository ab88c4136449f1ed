package main

import (
	"io"

	"github.com/iceagechess/iceage/tournament/pairingcmd"
)

func init() {
	register("pairings", "pair the next round of a tournament in TRF by the FIDE Dutch system", runPairings)
}

// runPairings is the pairing program's command line (--dutch IN.trf -p
// OUT, as bbpPairings reads it), also built alone as cmd/pairings.
func runPairings(args []string, stdout, stderr io.Writer) int {
	return pairingcmd.Run("iceage pairings", args, stdout, stderr)
}
