"""Writes a minimal 64-bit ELF file for binary-errors.test: a 64-byte header
with the given section header table, then zeros up to the table's start (or
the header's end) and 16 bytes of it, so that tables and sections can be
made to end past the file, as in a cubin cut short."""

import argparse
import struct

parser = argparse.ArgumentParser()
parser.add_argument("out")
parser.add_argument("--shoff", type=int, default=0)
parser.add_argument("--shnum", type=int, default=0)
parser.add_argument("--shentsize", type=int, default=64)
parser.add_argument("--phoff", type=int, default=0)
parser.add_argument("--phnum", type=int, default=0)
parser.add_argument("--section-offset", type=int, default=0)
parser.add_argument("--section-size", type=int, default=0)
parser.add_argument("--big-endian", action="store_true")
args = parser.parse_args()

ident = b"\x7fELF" + bytes([2, 2 if args.big_endian else 1, 1]) + bytes(9)
order = ">" if args.big_endian else "<"
# e_type, e_machine (EM_CUDA), e_version, e_entry, e_phoff, e_shoff, e_flags,
# e_ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum, e_shstrndx
header = ident + struct.pack(order + "HHIQQQIHHHHHH", 2, 190, 1, 0,
                             args.phoff, args.shoff, 0, 64, 56, args.phnum,
                             args.shentsize, args.shnum, 0)
data = bytearray(header)
if args.shnum:
    data += bytes(max(0, args.shoff - len(data)))
    # One section header (sh_type PROGBITS): the rest of the table is cut.
    section = struct.pack(order + "IIQQQQIIQQ", 0, 1, 0, 0,
                          args.section_offset, args.section_size, 0, 0, 1, 0)
    data += section[:16] if args.shnum > 1 else section
if args.section_offset and args.section_size <= 16:
    data += bytes(max(0, args.section_offset + args.section_size - len(data)))
with open(args.out, "wb") as out:
    out.write(data)
