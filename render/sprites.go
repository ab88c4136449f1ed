package render

import (
	"bytes"
	"embed"
	"fmt"
	"image"
	"image/draw"
	"image/png"

	"github.com/iceagechess/iceage/game"
	xdraw "golang.org/x/image/draw"
)

// The cburnett men, rasterised by pieces/generate.sh (see NOTICE.md). 64 px
// is the square of the default 512 px board and is used as is; every other
// square size is scaled from the 128 px master.
//
//go:embed pieces/64/*.png pieces/128/*.png
var pieceFiles embed.FS

// spriteName returns the file stem of the man's sprite, e.g. "wN".
func spriteName(x game.Piece) string {
	c := "w"
	if x.Color() == game.Black {
		c = "b"
	}
	return c + string(x.Kind().Letter())
}

// loadSprites returns the twelve men scaled to q×q pixels, indexed by
// game.Piece. It panics if an embedded file is missing or broken, which
// only a broken build can cause.
func loadSprites(q int) [16]*image.RGBA {
	var out [16]*image.RGBA
	for _, c := range []game.Color{game.White, game.Black} {
		for k := game.Pawn; k <= game.King; k++ {
			x := game.MakePiece(c, k)
			dir := "128"
			if q == 64 {
				dir = "64"
			}
			name := "pieces/" + dir + "/" + spriteName(x) + ".png"
			data, err := pieceFiles.ReadFile(name)
			if err != nil {
				panic(fmt.Sprintf("render: embedded sprite %s: %v", name, err))
			}
			src, err := png.Decode(bytes.NewReader(data))
			if err != nil {
				panic(fmt.Sprintf("render: embedded sprite %s: %v", name, err))
			}
			dst := image.NewRGBA(image.Rect(0, 0, q, q))
			if src.Bounds().Dx() == q {
				draw.Draw(dst, dst.Bounds(), src, src.Bounds().Min, draw.Src)
			} else {
				xdraw.CatmullRom.Scale(dst, dst.Bounds(), src, src.Bounds(), xdraw.Src, nil)
			}
			out[x] = dst
		}
	}
	return out
}
