//===- Tinygrad.cpp - uop-c: tinygrad kernel JSON -------------------------===//

#include "uop-c/Tinygrad.h"

#include "CAPIUtils.h"

#include "uop/Dialect/UOp/IR/UOpOps.h"
#include "uop/Target/Tinygrad/TinygradJSON.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;

MlirLogicalResult uopImportTinygradKernel(MlirModule module, MlirStringRef json,
                                          MlirStringRef filename, MlirStringRef defaultName) {
  return wrap(uop::capi::onToolStack([&] {
    return uop::importTinygradKernel(unwrap(json), unwrap(filename), unwrap(defaultName),
                                     unwrap(module));
  }));
}

MlirLogicalResult uopExportTinygradKernel(MlirModule module, MlirStringRef name,
                                          MlirStringCallback callback, void *userData) {
  ModuleOp m = unwrap(module);
  auto kernel = m.lookupSymbol<uop::KernelOp>(unwrap(name));
  if (!kernel)
    return wrap(emitError(m.getLoc()) << "no uop.kernel named '" << unwrap(name) << "'");
  detail::CallbackOstream os(callback, userData);
  return wrap(uop::capi::onToolStack([&] { return uop::exportTinygradKernel(kernel, os); }));
}

MlirLogicalResult uopImportTinygradGraph(MlirModule module, MlirStringRef json,
                                         MlirStringRef filename, MlirStringRef defaultName) {
  return wrap(uop::capi::onToolStack([&] {
    return uop::importTinygradGraph(unwrap(json), unwrap(filename), unwrap(defaultName),
                                    unwrap(module));
  }));
}

MlirLogicalResult uopExportTinygradSchedule(MlirModule module, MlirStringRef name,
                                            MlirStringCallback callback, void *userData) {
  ModuleOp m = unwrap(module);
  auto f = m.lookupSymbol<func::FuncOp>(unwrap(name));
  if (!f || !f->hasAttr("uop.outputs"))
    return wrap(emitError(m.getLoc()) << "no schedule named '" << unwrap(name) << "'");
  detail::CallbackOstream os(callback, userData);
  return wrap(uop::capi::onToolStack([&] { return uop::exportTinygradSchedule(f, os); }));
}
