//===- Npy.h - numpy's .npy files for kernel buffers ------------*- C++ -*-===//
//
// uop-run reads a buffer's contents from, and writes them to, numpy's .npy
// format (version 1.0 to 3.0 read, 1.0 written): a C-order array of the
// buffer's dtype, any shape with as many elements. numpy has no bfloat16:
// a bf16 buffer is its bits as '<u2'.
//
//===----------------------------------------------------------------------===//
#ifndef UOP_RUNTIME_NPY_H
#define UOP_RUNTIME_NPY_H

#include "mlir/IR/Types.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir::uop {

/// numpy's name for `dtype` ('<f4', '|b1', ...).
std::string npyDescr(Type dtype);

/// The elements of a .npy file's text `data`, as raw little-endian bytes: an
/// error unless it holds `elements` values of `dtype` in C order.
llvm::Expected<std::vector<uint8_t>> parseNpy(StringRef data, Type dtype, int64_t elements);

/// A 1-D .npy file of `bytes`, the elements of `dtype`.
std::string makeNpy(Type dtype, ArrayRef<uint8_t> bytes);

} // namespace mlir::uop

#endif
