#!/bin/sh
# Renders the PNG icon set from lookout.svg (ImageMagick). Run from this directory.
set -e
for s in 16 24 32 48 64 128 256 512; do
  convert -background none -density 300 lookout.svg -resize ${s}x${s} -depth 8 PNG32:lookout-$s.png
done
