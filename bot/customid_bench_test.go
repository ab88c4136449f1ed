package bot

import (
	"strconv"
	"strings"
	"testing"
)

// BenchmarkClickRoute routes a Resign click, an id deep in the table, by
// the router of patterns; split is the baseline in the same run, the
// switch over strings.Split and a map of verbs that routed clicks before.
func BenchmarkClickRoute(b *testing.B) {
	const id = "g:tno:123456:78"
	b.Run("router", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, f, ok := clicks.match(id); !ok || f.str("game") != "123456" {
				b.Fatal("no route")
			}
		}
	})
	verbs := map[string]bool{"resign": true, "resignok": true, "draw": true, "dyes": true, "dno": true, "flip": true,
		"abort": true, "tyes": true, "tno": true, "cwin": true, "cdraw": true}
	b.Run("split", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			parts := strings.Split(id, ":")
			if len(parts) != 4 || parts[0] != "g" || !verbs[parts[1]] {
				b.Fatal("no route")
			}
			if _, err := strconv.ParseUint(parts[2], 10, 64); err != nil {
				b.Fatal(err)
			}
		}
	})
}
