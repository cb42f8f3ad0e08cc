//===- KernelParameters.cpp - a GPU kernel's parameters, as passed --------===//

#include "uop/Conversion/Common/KernelParameters.h"

using namespace mlir;
using namespace mlir::uop;

FailureOr<KernelParameters> mlir::uop::splitKernelParameters(LLVM::LLVMFuncOp func,
                                                             ArrayRef<unsigned> mapBuffers,
                                                             StringRef runner) {
  StringRef name = func.getSymName();
  size_t numMaps = mapBuffers.size();
  ArrayRef<Type> params = func.getArgumentTypes();
  if (params.size() < numMaps ||
      !llvm::all_of(params.take_back(numMaps), llvm::IsaPred<LLVM::LLVMPointerType>))
    return func.emitError() << "kernel '" << name
                            << "' must take a pointer to each tensor map its uop.launch entry "
                               "lists ("
                            << numMaps << ") as its last parameters";
  params = params.drop_back(numMaps);
  unsigned numBuffers =
      llvm::find_if_not(params, llvm::IsaPred<LLVM::LLVMPointerType>) - params.begin();
  for (Type t : params.drop_front(numBuffers))
    if (!t.isInteger(32))
      return func.emitError() << runner << " passes buffers, then i32 variables"
                              << (numMaps ? ", then tensor maps" : "") << ", but kernel '" << name
                              << "' has a parameter of type " << t << " after its buffers";
  for (auto [i, buffer] : llvm::enumerate(mapBuffers))
    if (buffer >= numBuffers)
      return func.emitError() << "tensor map " << i << " of kernel '" << name << "' is of buffer "
                              << buffer << ", past the kernel's buffers (it takes " << numBuffers
                              << ")";
  return KernelParameters{numBuffers, static_cast<unsigned>(params.size()) - numBuffers};
}
