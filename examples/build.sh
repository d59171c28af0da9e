#!/usr/bin/env bash
# Rebuilds examples/bin/ from examples/thesis/*.s with real toolchains:
#   ELF    NAME.o (as --64), NAME (executable, gcc), branch.so, branch-i386.elf32.o (as --32)
#   PE32   branch-i386.exe (i686-w64-mingw32-gcc)
#   PE     NAME.obj (x86_64-w64-mingw32-as), NAME.exe (x86_64-w64-mingw32-gcc), branch.dll
#   Mach-O NAME.macho.o (clang -target x86_64-apple-macos -c),
#          branch.universal.o (llvm-lipo: x86_64 slice + i386 slice from branch-i386.s)
# and the non-x86 fixtures the tests need (test/disasm/fixtures: aarch64 ELF, arm64 Mach-O).
# Needs: binutils, gcc, mingw-w64, clang, llvm (apt-get install -y clang mingw-w64 llvm-19).
set -euo pipefail
cd "$(dirname "$0")"
SRC=thesis
OUT=bin
FIX=../test/disasm/fixtures
mkdir -p "$OUT" "$FIX"
LIPO=$(command -v llvm-lipo-19 || command -v llvm-lipo || command -v lipo)

for src in "$SRC"/*.s; do
  name=$(basename "$src" .s)
  [ "$name" = branch-i386 ] && continue
  as --64 "$src" -o "$OUT/$name.o"
  gcc -no-pie -Wa,--noexecstack -z noexecstack "$src" -o "$OUT/$name"
  x86_64-w64-mingw32-as "$src" -o "$OUT/$name.obj"
  # branch.exe keeps its COFF symbol table (for --function); the others are stripped (-s) to
  # stay small; --no-insert-timestamp keeps rebuilds byte-identical
  strip=-s; [ "$name" = branch ] && strip=
  x86_64-w64-mingw32-gcc $strip -Wl,--no-insert-timestamp "$src" -o "$OUT/$name.exe"
  clang -target x86_64-apple-macos11 -c "$src" -o "$OUT/$name.macho.o"
done
gcc -shared -Wa,--noexecstack -z noexecstack "$SRC/branch.s" -o "$OUT/branch.so"
x86_64-w64-mingw32-gcc -s -Wl,--no-insert-timestamp -shared "$SRC/branch.s" -o "$OUT/branch.dll"
as --32 "$SRC/branch-i386.s" -o "$OUT/branch-i386.elf32.o"
i686-w64-mingw32-gcc -Wl,--no-insert-timestamp -s "$SRC/branch-i386.s" -o "$OUT/branch-i386.exe"
clang -target i386-apple-macos10.13 -c "$SRC/branch-i386.s" -o "$OUT/branch-i386.macho.o"
"$LIPO" -create "$OUT/branch.macho.o" "$OUT/branch-i386.macho.o" -output "$OUT/branch.universal.o"
rm -f "$OUT/branch-i386.macho.o"

# non-x86 inputs for the bad-input tests
printf '\t.text\n\t.globl main\nmain:\n\tadd x0, x0, x1\n\tret\n' > "$FIX/aarch64.s"
clang -target aarch64-linux-gnu -c "$FIX/aarch64.s" -o "$FIX/aarch64.elf.o"
clang -target arm64-apple-macos11 -c "$FIX/aarch64.s" -o "$FIX/arm64.macho.o"
rm -f "$FIX/aarch64.s"
# x86 objects with bad markers or bytes (sources in test/disasm/fixtures)
for f in no-markers unpaired-start unpaired-end empty-region undecodable; do
  as --64 "$FIX/$f.s" -o "$FIX/$f.o"
done
echo "built: $(ls "$OUT" | wc -l) files in examples/bin"
