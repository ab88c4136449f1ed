#!/bin/sh
# generate.sh rasterises the cburnett piece set (SVG, by Colin M.L. Burnett,
# see ../NOTICE.md) into the PNG sprites that render embeds. The SVGs come
# from the Go module github.com/notnil/chess@v1.10.0, which ships them under
# image/internal/pieces/; the module is only downloaded, never imported.
#
# Needs: go, rsvg-convert (Debian package librsvg2-bin).
# Run from anywhere: sh render/pieces/generate.sh
set -eu
cd "$(dirname "$0")"
dir=$(go mod download -json github.com/notnil/chess@v1.10.0 | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
src="$dir/image/internal/pieces"
# 64 px fits the default 512 px board exactly (64 px squares); 128 px is the
# master that other board sizes are scaled down from.
for size in 64 128; do
	mkdir -p "$size"
	for f in "$src"/*.svg; do
		name=$(basename "$f" .svg)
		rsvg-convert -w "$size" -h "$size" -f png -o "$size/$name.png" "$f"
	done
done
