package asm

import "testing"

func BenchmarkLoadImage(b *testing.B) {
	for b.Loop() {
		im := readImage("/proc/self/exe")
		if im.err != nil {
			b.Fatal(im.err)
		}
	}
}
