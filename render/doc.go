// Package render draws Ice Age Chess boards: a PNG per position, an Ice
// Age as a before/after pair, and a whole game as an animated GIF. It
// adapts github.com/fogleman/gg; the men are the cburnett set (see
// NOTICE.md).
//
// # Basics
//
// Board and PNG draw a position seen from the side to move (Options can
// fix the side), in a lichess-like palette with coordinates in the
// corners (16 px on a 512 px board, dark enough for 4.5:1 on both
// squares), the last move and a king in check marked, optional highlights
// and arrows, and a header that says whose turn it is, the move number and
// how many Black moves remain until the Ice Age, in the Words the caller
// gives (i18n.BoardWords, in the reader's language): render has no words
// of its own, and without Words a picture has no header. On the move before an Ice
// Age every man that would freeze is framed in the warning colour and
// wears a snowflake badge. Ice is a
// translucent light-blue block. IceAge draws the position right after
// Black's move, with what is about to freeze and fill marked, beside the
// position after the Ice Age, the frozen men faded inside their ice,
// under the captions the caller gives (i18n.IceAgeCaptions). A header
// too long for its width loses its lesser parts and then shrinks. GIF
// draws a game, one frame per ply and the Ice Age as frames of its own,
// up to Options.MaxFrames (DefaultMaxFrames, 100): a longer game is
// sampled, every Ice Age and the final position kept, and WriteGIF says
// how many plies it shows, so that a reply can say so; with a Title, it
// ends on the game's result.
// A picture's description for screen readers is i18n's
// (BoardDescription, IceAgeDescription). The ColorBlind theme relies on
// lightness and shape as well as hue.
//
// RatingChart draws a player's rating over time as a small PNG for a dark
// background, a line with the deviation band shaded and the current
// rating in a tag, its dates in the DateWords the caller gives
// (i18n.ChartDates); its description in words is the caller's.
//
// # Speed
//
// Everything that does not change between boards is drawn once per theme
// and size and kept: every square (its colour, coordinate label, underlay,
// man or ice, badge) as a tile of palette indices, and every header. A
// board is then 64 tile copies, and gg only runs for a square or header
// not seen before (and for arrows). Images are paletted with a palette
// chosen per theme, so PNGs are small and quick to compress, and GIF
// frames hold only the rectangle that changed.
//
// # Caveats
//
// All functions are safe for concurrent use. The caches are bounded; the
// first board of a theme and size costs tens of milliseconds while its
// palette and tiles are made, and so does the first chart of a theme.
// Charts are drawn whole each time (a few milliseconds). Board returns a fresh image that the caller
// owns. A GIF shows White at the bottom unless Options say BlackBottom,
// and does not draw Options' highlights and arrows. The GIF encoder holds
// every frame at once, about 0.4 MB each at the default size: the frame
// cap is what bounds a GIF's memory and time.
package render
