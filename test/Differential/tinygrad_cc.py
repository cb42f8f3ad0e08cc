#!/usr/bin/python3
"""The C compiler tinygrad's CPU device runs (CC): clang-22, with compiler-rt's
float -> bf16 conversion added to the source where it has bf16.

tinygrad links its kernels with no runtime library (its own ELF loader
refuses an undefined symbol, and reads only PC32 relocations on x86-64).
clang converts float to bf16 inline only on a host with AVX512-BF16
(-march=native); elsewhere it calls compiler-rt's __truncsfbf2, which
tinygrad cannot load: every bf16 kernel failed on such a host. The routine
is defined here as compiler-rt defines it (round to nearest even, NaN
quieted), static and after the kernel, whose code must come first (tinygrad
calls the start of the object's text). The calls clang makes to it go
through the PLT; in assembly they become direct calls to the local
function, which the assembler resolves. Arguments are tinygrad's (the source
on stdin, the object to stdout).
"""
import os
import subprocess
import sys

TRUNCSFBF2 = r"""
__attribute__((used)) static __bf16 __truncsfbf2(float x) {
  unsigned int bits;
  __builtin_memcpy(&bits, &x, 4);
  unsigned int half = (bits & 0x7fffffffu) > 0x7f800000u
                          ? (bits >> 16) | 0x40u
                          : (bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16;
  unsigned short h = (unsigned short)half;
  __bf16 r;
  __builtin_memcpy(&r, &h, 2);
  return r;
}
"""


def main():
    compiler = os.environ.get("TINYGRAD_CC", "clang-22")
    args = sys.argv[1:]
    source = sys.stdin.buffer.read()
    if b"__bf16" not in source or b"__truncsfbf2" in source or "-c" not in args:
        sys.exit(subprocess.run([compiler, *args], input=source).returncode)
    source += TRUNCSFBF2.encode()
    to_asm = ["-S" if a == "-c" else a for a in args]
    if "-o" in to_asm:
        to_asm[to_asm.index("-o") + 1] = "-"
    asm = subprocess.run([compiler, *to_asm], input=source, stdout=subprocess.PIPE)
    if asm.returncode:
        sys.exit(asm.returncode)
    text = asm.stdout.replace(b"__truncsfbf2@PLT", b"__truncsfbf2")
    lang = args.index("-x") + 1 if "-x" in args else None
    to_obj = [("assembler" if i == lang else a) for i, a in enumerate(args)]
    sys.exit(subprocess.run([compiler, "-Wno-unused-command-line-argument", *to_obj],
                            input=text).returncode)


if __name__ == "__main__":
    main()
