//===- UOpDialect.h - uop dialect -------------------------------*- C++ -*-===//
#ifndef UOP_DIALECT_UOP_IR_UOPDIALECT_H
#define UOP_DIALECT_UOP_IR_UOPDIALECT_H

#include "mlir/IR/Dialect.h"
#include "mlir/IR/Operation.h"
#include "uop/Dialect/UOp/IR/UOpAttrs.h"

#include "uop/Dialect/UOp/IR/UOpOpsDialect.h.inc"

#include <array>
#include <optional>

namespace mlir::uop {
/// A grid or block size of a `uop.launch` entry (array<i32: x, y, z> of
/// positive sizes, as the dialect verifies them), or std::nullopt.
std::optional<std::array<int32_t, 3>> readLaunchSize(Attribute a);
/// The `sym` of a `uop.launch` entry, its symbolic sizes: #uop.sym_entry
/// with slot 0-2 for grid x, y, z and 3-5 for block x, y, z, each slot at
/// most once. Empty when `a` is null; std::nullopt when malformed.
std::optional<SmallVector<SymEntryAttr>> readLaunchSymbolic(Attribute a);
/// The `tensor_maps` of a `uop.launch` entry: the #uop.tensor_map the
/// kernel takes a pointer to each of, after its variables. Empty when `a`
/// is null; std::nullopt when malformed.
std::optional<SmallVector<TensorMapAttr>> readLaunchTensorMaps(Attribute a);
} // namespace mlir::uop

#endif
