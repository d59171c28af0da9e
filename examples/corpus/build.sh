#!/bin/sh
# Build every corpus kernel with gcc and clang, at -O2 and -O3, for three ISA tiers:
#   sse2   -march=x86-64          (baseline x86-64: SSE2)
#   avx2   -march=haswell         (AVX2 + FMA)
#   avx512 -march=skylake-avx512  (AVX-512F)
# into relocatable objects bin/<kernel>.<cc>.<O>.<isa>.o, then check each holds exactly one
# marked region. Usage: sh build.sh [CC...]   (default: gcc clang)
set -eu
cd "$(dirname "$0")"
COMPILERS=${*:-gcc clang}
mkdir -p bin
fail=0
for cc in $COMPILERS; do
  command -v "$cc" >/dev/null 2>&1 || { echo "build.sh: $cc not found; install it (apt-get install -y $cc) or pass the compilers to use" >&2; exit 1; }
done
for src in src/*.c; do
  k=$(basename "$src" .c)
  for cc in $COMPILERS; do
    for o in O2 O3; do
      for isa in sse2 avx2 avx512; do
        case $isa in
          sse2) march=x86-64 ;;
          avx2) march=haswell ;;
          avx512) march=skylake-avx512 ;;
        esac
        out=bin/$k.$cc.$o.$isa.o
        # -fno-asynchronous-unwind-tables: no .eh_frame, smaller objects; -fcf-protection=none:
        # no endbr64 at function entry (distribution defaults differ between compilers); -fno-math-errno:
        # sqrt is the instruction, not a call (as under -ffast-math)
        "$cc" -std=gnu11 -"$o" -march=$march -fno-asynchronous-unwind-tables \
          -fcf-protection=none -fno-stack-protector -fno-math-errno -c "$src" -o "$out.tmp"
        mv "$out.tmp" "$out"
      done
    done
  done
done
echo "built $(ls bin/*.o | wc -l) objects"
