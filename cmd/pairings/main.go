// Command pairings pairs the next round of a tournament in TRF by the
// FIDE Dutch system, with the command line of the endorsed pairing
// program bbpPairings:
//
//	pairings --dutch IN.trf -p [OUT]
//
// It is "iceage pairings" on its own: the Ice Age Chess program links
// the whole bot, whose binary's pages and package set-up a pairing pays
// for in memory and time, while this one links only the pairing.
// Build it with "go build ./cmd/pairings".
package main

import (
	"os"

	"github.com/iceagechess/iceage/tournament/pairingcmd"
)

func main() {
	os.Exit(pairingcmd.Run("pairings", os.Args[1:], os.Stdout, os.Stderr))
}
