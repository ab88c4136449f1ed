package render

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"io"
	"sync"

	"github.com/klauspost/compress/zlib"
)

// pngLevel is the zlib level of the PNGs this package writes. They are
// compressed with klauspost/compress's zlib, which writes the same format
// as the standard library's in about half the time (BenchmarkPNGLevel
// compares both on the benchmark board): its level 6 writes about as
// many bytes as the standard level 5 did (1 % more), in 1.0 ms instead
// of 2.0 ms.
// image/png offers neither that speed nor a level between BestSpeed and
// the default, so writePaletted writes the few PNG chunks itself.
const pngLevel = 6

// fastPNGLevel is the level of Options.FastPNG, the move replies': the
// bytes of the standard library's BestSpeed in half its time.
const fastPNGLevel = zlib.BestSpeed

// zlibWriter is a reusable zlib compressor: klauspost/compress's, or the
// standard library's in the benchmark that compares them.
type zlibWriter interface {
	io.WriteCloser
	Reset(w io.Writer)
}

// pngState is the reusable memory of one PNG encoding: the zlib writer
// alone holds several hundred kilobytes of tables.
type pngState struct {
	raw []byte // filter byte + indices, row after row
	z   bytes.Buffer
	zw  zlibWriter
	out bytes.Buffer
}

var pngStates = sync.Pool{New: func() any { return newPNGState(pngLevel) }}

// fastPNGStates encode at zlib's fastest level (Options.FastPNG).
var fastPNGStates = sync.Pool{New: func() any { return newPNGState(fastPNGLevel) }}

func newPNGState(level int) *pngState {
	s := &pngState{}
	s.zw, _ = zlib.NewWriterLevel(&s.z, level) // callers pass valid levels
	return s
}

var pngSignature = []byte("\x89PNG\r\n\x1a\n")

// writePaletted writes an 8-bit paletted PNG without filtering: filters
// do not help palette indices, whose numbers say nothing about colour.
func writePaletted(w io.Writer, im *image.Paletted) error { return writePalettedAt(w, im, false) }

// writePalettedAt is writePaletted at the fastest level when fast is set.
func writePalettedAt(w io.Writer, im *image.Paletted, fast bool) error {
	pool := &pngStates
	if fast {
		pool = &fastPNGStates
	}
	s := pool.Get().(*pngState)
	defer pool.Put(s)
	return s.encode(w, im)
}

func (s *pngState) encode(w io.Writer, im *image.Paletted) error {
	b := im.Bounds()
	wd, ht := b.Dx(), b.Dy()
	n := (wd + 1) * ht
	if cap(s.raw) < n {
		s.raw = make([]byte, n)
	}
	raw := s.raw[:n]
	for y := range ht {
		raw[y*(wd+1)] = 0 // filter type None
		off := im.PixOffset(b.Min.X, b.Min.Y+y)
		copy(raw[y*(wd+1)+1:(y+1)*(wd+1)], im.Pix[off:off+wd])
	}
	s.z.Reset()
	s.zw.Reset(&s.z)
	if _, err := s.zw.Write(raw); err != nil {
		return err
	}
	if err := s.zw.Close(); err != nil {
		return err
	}

	s.out.Reset()
	s.out.Write(pngSignature)
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(wd))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(ht))
	ihdr[8], ihdr[9] = 8, 3 // bit depth 8, colour type 3: palette
	chunk(&s.out, "IHDR", ihdr[:])
	pal := make([]byte, 0, 3*len(im.Palette))
	for _, c := range im.Palette {
		r, g, bl, _ := c.RGBA()
		pal = append(pal, uint8(r>>8), uint8(g>>8), uint8(bl>>8))
	}
	chunk(&s.out, "PLTE", pal)
	chunk(&s.out, "IDAT", s.z.Bytes())
	chunk(&s.out, "IEND", nil)
	if _, err := w.Write(s.out.Bytes()); err != nil {
		return fmt.Errorf("render: writing the PNG: %w", err)
	}
	return nil
}

// chunk appends a PNG chunk: length, type, data, CRC of type and data.
func chunk(out *bytes.Buffer, typ string, data []byte) {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(data)))
	out.Write(n[:])
	start := out.Len()
	out.WriteString(typ)
	out.Write(data)
	binary.BigEndian.PutUint32(n[:], crc32.ChecksumIEEE(out.Bytes()[start:]))
	out.Write(n[:])
}
