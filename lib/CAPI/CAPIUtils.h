//===- CAPIUtils.h - what every uop-c entry point shares --------*- C++ -*-===//
#ifndef UOP_LIB_CAPI_CAPIUTILS_H
#define UOP_LIB_CAPI_CAPIUTILS_H

#include "uop/Support/Stack.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/Error.h"

#include <type_traits>

namespace mlir::uop::capi {

/// Runs `work` on the tools' stack: kernels are walked recursively, and the
/// importer accepts kernels deeper than a default thread stack holds
/// (uop/Support/Stack.h). The caller's thread waits, so diagnostic handlers
/// run while it is blocked in the call, as they would on its own stack.
template <typename F> auto onToolStack(F &&work) -> std::invoke_result_t<F> {
  std::optional<std::invoke_result_t<F>> result;
  runOnToolStack([&] {
    result.emplace(work());
    return 0;
  });
  return std::move(*result);
}

/// An llvm::Error as an error diagnostic on `ctx` (the C API's one channel
/// for errors); failure() if there was an error.
inline LogicalResult reportError(MLIRContext *ctx, llvm::Error err) {
  if (!err)
    return success();
  emitError(UnknownLoc::get(ctx)) << llvm::toString(std::move(err));
  return failure();
}

} // namespace mlir::uop::capi

#endif
