//===- DeviceIR.cpp - the IR the NVPTX backend compiles, for the simulator ---===//

#include "DeviceIR.h"

#include "uop/Conversion/GPUToPTX/NVPTXMachine.h"
#include "uop/Conversion/NVVMToSim/MBarrierToSim.h"
#include "uop/Conversion/NVVMToSim/WgmmaToSim.h"
#include "uop/Dialect/UOp/IR/UOpAttrs.h"

#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/IR/Builders.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMIRToLLVMTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/LLVMIRToNVVMTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Target/LLVMIR/Import.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/GVN.h"
#include "llvm/Transforms/Scalar/InferAddressSpaces.h"
#include "llvm/Transforms/Scalar/LoopPassManager.h"
#include "llvm/Transforms/Scalar/LoopStrengthReduce.h"
#include "llvm/Transforms/Scalar/NaryReassociate.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/SeparateConstOffsetFromGEP.h"
#include "llvm/Transforms/Scalar/SpeculativeExecution.h"
#include "llvm/Transforms/Scalar/StraightLineStrengthReduce.h"
#include "llvm/Transforms/Vectorize/LoadStoreVectorizer.h"

using namespace mlir;

/// LLVM's pipeline at `optLevel` (what uop-serialize-to-ptx runs), then
/// the IR passes NVPTX's code generator adds before instruction selection
/// (NVPTXPassConfig::addIRPasses) that LLVM exports: address-space
/// inference, the straight-line scalar optimizations, loop strength
/// reduction, GVN and the load/store vectorizer, which make vector loads and
/// strength-reduce the address arithmetic as the PTX has them.
static void optimize(llvm::Module &ir, llvm::TargetMachine &machine, unsigned optLevel) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(&machine);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  if (optLevel == 0) {
    pb.buildO0DefaultPipeline(llvm::OptimizationLevel::O0).run(ir, mam);
    return;
  }
  llvm::OptimizationLevel level = optLevel == 1   ? llvm::OptimizationLevel::O1
                                  : optLevel == 2 ? llvm::OptimizationLevel::O2
                                                  : llvm::OptimizationLevel::O3;
  llvm::ModulePassManager mpm = pb.buildPerModuleDefaultPipeline(level);
  llvm::FunctionPassManager codegen;
  codegen.addPass(llvm::SROAPass(llvm::SROAOptions::ModifyCFG));
  codegen.addPass(llvm::InferAddressSpacesPass());
  codegen.addPass(llvm::SeparateConstOffsetFromGEPPass());
  codegen.addPass(llvm::SpeculativeExecutionPass());
  codegen.addPass(llvm::StraightLineStrengthReducePass());
  auto cse = [&] { // NVPTX's addEarlyCSEOrGVNPass
    if (optLevel >= 3)
      codegen.addPass(llvm::GVNPass());
    else
      codegen.addPass(llvm::EarlyCSEPass());
  };
  cse();
  codegen.addPass(llvm::NaryReassociatePass());
  codegen.addPass(llvm::EarlyCSEPass());
  codegen.addPass(llvm::createFunctionToLoopPassAdaptor(llvm::LoopStrengthReducePass()));
  cse();
  codegen.addPass(llvm::LoadStoreVectorizerPass());
  codegen.addPass(llvm::SROAPass(llvm::SROAOptions::ModifyCFG));
  mpm.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(codegen)));
  mpm.run(ir, mam);
}

/// Whether `v` is llvm.mlir.undef or poison, or an address made from one
/// (through GEPs, whose indices count too, and casts).
static bool isUndefined(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (isa<LLVM::UndefOp, LLVM::PoisonOp>(def))
      return true;
    if (auto gep = dyn_cast<LLVM::GEPOp>(def)) {
      if (llvm::any_of(gep.getDynamicIndices(), [](Value i) {
            return isa_and_present<LLVM::UndefOp, LLVM::PoisonOp>(i.getDefiningOp());
          }))
        return true;
      v = gep.getBase();
    } else if (isa<LLVM::AddrSpaceCastOp, LLVM::IntToPtrOp, LLVM::BitcastOp>(def)) {
      v = def->getOperand(0);
    } else {
      return false;
    }
  }
  return false;
}

/// An access through an undefined address, or a branch on an undefined
/// value, is undefined behaviour that LLVM's optimizer deletes (a load) or
/// makes `unreachable` (a store, a branch): the run would say nothing of it,
/// so it is an error at the op. What the optimizer itself finds undefined is
/// a fault when a thread reaches it (convert-nvvm-to-sim).
static LogicalResult checkDefinedUses(ModuleOp device) {
  WalkResult r = device.walk([](Operation *op) {
    Value used;
    StringRef what = "an address";
    if (auto load = dyn_cast<LLVM::LoadOp>(op))
      used = load.getAddr();
    else if (auto store = dyn_cast<LLVM::StoreOp>(op))
      used = store.getAddr();
    else if (auto br = dyn_cast<LLVM::CondBrOp>(op))
      used = br.getCondition(), what = "a condition";
    if (!used || !isUndefined(used))
      return WalkResult::advance();
    op->emitError() << "'" << op->getName() << "' with " << what
                    << " that is undefined (made from llvm.mlir.undef or poison): undefined "
                       "behaviour, which the simulator does not run";
    return WalkResult::interrupt();
  });
  return failure(r.wasInterrupted());
}

FailureOr<OwningOpRef<ModuleOp>>
mlir::uop::sim::optimizeDeviceIR(Operation *gpuModule, StringRef chip, unsigned optLevel) {
  MLIRContext *ctx = gpuModule->getContext();
  Location loc = gpuModule->getLoc();
  OwningOpRef<ModuleOp> device = ModuleOp::create(loc);
  OpBuilder b(ctx);
  b.setInsertionPointToStart(device->getBody());
  for (Operation &op : gpuModule->getRegion(0).front())
    b.clone(op);
  // LLVM has no intrinsic for these: calls the simulator implements.
  rewriteWgmmaForSim(*device);
  rewriteMBarriersForSim(*device);
  if (failed(checkDefinedUses(*device)))
    return failure();

  // Line tables, so that the ops keep their locations through LLVM: the
  // simulator's errors name them.
  PassManager pm(ctx);
  pm.addPass(LLVM::createDIScopeForLLVMFuncOpPass());
  if (failed(pm.run(*device)))
    return failure();

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> ir = translateModuleToLLVMIR(*device, llvmContext, "uop-sim");
  if (!ir)
    return emitError(loc) << "the simulator cannot translate the kernel to LLVM IR";

  // The target machine the PTX is compiled with (uop-serialize-to-ptx).
  std::string why;
  NVPTXMachineLease machine(chip, TargetAttr::getPTXFeatures(chip), optLevel, why);
  if (!machine.get())
    return emitError(loc) << "the simulator needs LLVM's NVPTX target: " << why;
  ir->setTargetTriple(machine.get()->getTargetTriple());
  ir->setDataLayout(machine.get()->createDataLayout());
  optimize(*ir, *machine.get(), optLevel);

  // It runs on the host: no NVPTX triple, data layout or calling convention.
  ir->setTargetTriple(llvm::Triple());
  ir->setDataLayout("");
  DialectRegistry registry;
  registerLLVMDialectImport(registry);
  registerNVVMDialectImport(registry);
  ctx->appendDialectRegistry(registry);
  ctx->getOrLoadDialect<DLTIDialect>(); // (the importer writes the data layout with it)
  OwningOpRef<ModuleOp> optimized =
      translateLLVMIRToModule(std::move(ir), ctx, /*emitExpensiveWarnings=*/false,
                              /*dropDICompositeTypeElements=*/false, /*loadAllDialects=*/true,
                              /*preferUnregisteredIntrinsics=*/true);
  if (!optimized)
    return emitError(loc) << "the simulator cannot import the optimized kernel";
  for (StringRef attr : {"llvm.target_triple", "llvm.data_layout", "dlti.dl_spec"})
    (*optimized)->removeAttr(attr);
  for (auto f : optimized->getOps<LLVM::LLVMFuncOp>())
    f.setCConv(LLVM::cconv::CConv::C);
  return optimized;
}
