//===- SerializeToPTX.cpp - gpu.modules to PTX, in parallel ----------------===//
//
// What gpu-module-to-binary{format=isa} does for an #nvvm.target, with three
// differences that make compiling many kernels cheap (issue 23): libdevice
// is read and linked only into a module that calls one of its `__nv_*`
// functions (upstream reads and links it into every module whenever a CUDA
// toolkit is found); target machines come from a process-wide pool rather
// than one per module; and the modules compile in parallel on the
// context's thread pool, each with its own LLVMContext.
//
//===----------------------------------------------------------------------===//

#include "uop/Conversion/GPUToPTX/NVPTXMachine.h"
#include "uop/Conversion/Passes.h"
#include "uop/Target/PTX/PTXPrinter.h"

#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/Threading.h"
#include "mlir/Target/LLVM/ModuleToObject.h"
#include "mlir/Target/LLVM/NVVM/Utils.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Transforms/IPO/Internalize.h"

#include <mutex>

namespace mlir::uop {
#define GEN_PASS_DEF_UOPSERIALIZETOPTX
#include "uop/Conversion/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

namespace {

/// libdevice's bitcode, read at most once per run, by the first module
/// that calls into it.
class LibDevice {
public:
  explicit LibDevice(std::string path) : path(std::move(path)) {}

  /// Its bytes, or null with `why` set.
  const llvm::MemoryBuffer *bytes(std::string &why) {
    std::call_once(once, [&] {
      if (path.empty()) {
        error = "no CUDA toolkit found (set CUDA_HOME, or pass libdevice=<file>)";
        return;
      }
      llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file = llvm::MemoryBuffer::getFile(path);
      if (file)
        buffer = std::move(*file);
      else
        error = "cannot read libdevice '" + path + "': " + file.getError().message();
    });
    why = error;
    return buffer.get();
  }

private:
  std::string path, error;
  std::once_flag once;
  std::unique_ptr<llvm::MemoryBuffer> buffer;
};

/// The first libdevice function `m` declares (calls), or "".
llvm::StringRef firstLibDeviceCall(const llvm::Module &m) {
  for (const llvm::Function &f : m)
    if (f.isDeclaration() && f.getName().starts_with("__nv_"))
      return f.getName();
  return "";
}

/// Links what `m` needs of libdevice into it, internalized, as
/// gpu-module-to-binary links its libraries.
LogicalResult linkLibDevice(llvm::Module &m, const llvm::MemoryBuffer &bytes, Operation *op) {
  llvm::Expected<std::unique_ptr<llvm::Module>> lib =
      llvm::getLazyBitcodeModule(bytes.getMemBufferRef(), m.getContext());
  if (!lib)
    return op->emitOpError() << "cannot parse libdevice: " << llvm::toString(lib.takeError());
  (*lib)->setTargetTriple(m.getTargetTriple());
  (*lib)->setDataLayout(m.getDataLayout());
  auto internalize = [](llvm::Module &merged, const llvm::StringSet<> &linked) {
    llvm::internalizeModule(merged, [&](const llvm::GlobalValue &gv) {
      return !gv.hasName() || !linked.contains(gv.getName());
    });
  };
  if (llvm::Linker::linkModules(m, std::move(*lib), llvm::Linker::Flags::LinkOnlyNeeded,
                                internalize))
    return op->emitOpError() << "cannot link libdevice";
  return success();
}

/// One gpu.module's PTX, by uop-mlir's own printer.
FailureOr<SmallString<0>> printDirect(gpu::GPUModuleOp module) {
  SmallString<0> text;
  if (failed(printPTX(module, text)))
    return failure();
  return text;
}

/// One gpu.module's PTX, by LLVM.
FailureOr<SmallString<0>> compile(gpu::GPUModuleOp module, NVVM::NVVMTargetAttr target,
                                  LibDevice &libdevice) {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> ir = translateModuleToLLVMIR(module, context, module.getName());
  if (!ir)
    return module.emitOpError() << "cannot be translated to LLVM IR";
  std::string why;
  NVPTXMachineLease machine(target.getChip(), target.getFeatures(), target.getO(), why);
  if (!machine.get())
    return module.emitOpError() << why;
  ir->setTargetTriple(machine.get()->getTargetTriple());
  ir->setDataLayout(machine.get()->createDataLayout());
  if (llvm::StringRef call = firstLibDeviceCall(*ir); !call.empty()) {
    const llvm::MemoryBuffer *bytes = libdevice.bytes(why);
    if (!bytes)
      return module.emitOpError() << "calls libdevice's " << call << ", but " << why;
    if (failed(linkLibDevice(*ir, *bytes, module)))
      return failure();
  }
  if (llvm::Error e = makeOptimizingTransformer(target.getO(), 0, machine.get())(ir.get()))
    return module.emitOpError() << "LLVM's optimizer failed: " << llvm::toString(std::move(e));
  return LLVM::ModuleToObject::translateModuleToISA(*ir, *machine.get(),
                                                    [&] { return module.emitOpError(); });
}

struct SerializeToPTX : uop::impl::UOpSerializeToPTXBase<SerializeToPTX> {
  using Base::Base;

  /// A bad option fails the pipeline before any pass ran.
  LogicalResult initialize(MLIRContext *ctx) override {
    if (isKnownPTXPrinter(printer))
      return success();
    return emitError(UnknownLoc::get(ctx))
           << "uop-serialize-to-ptx: unknown printer '" << printer << "' (known: llvm, direct)";
  }

  void runOnOperation() override {
    bool direct = printer == "direct";
    SmallVector<gpu::GPUModuleOp> modules(getOperation().getOps<gpu::GPUModuleOp>());
    SmallVector<NVVM::NVVMTargetAttr> targets;
    for (gpu::GPUModuleOp m : modules) {
      ArrayAttr attrs = m.getTargetsAttr();
      auto target = attrs && attrs.size() == 1 ? dyn_cast<NVVM::NVVMTargetAttr>(attrs[0])
                                               : NVVM::NVVMTargetAttr();
      if (!target) {
        m.emitOpError() << "needs exactly one #nvvm.target to be compiled to PTX";
        return signalPassFailure();
      }
      if (target.getLink() && !target.getLink().empty()) {
        m.emitOpError() << "has #nvvm.target link files, which uop-serialize-to-ptx does not link";
        return signalPassFailure();
      }
      targets.push_back(target);
    }
    std::string path = libdevice;
    if (path.empty())
      if (StringRef toolkit = NVVM::getCUDAToolkitPath(); !toolkit.empty()) {
        SmallString<128> file(toolkit);
        llvm::sys::path::append(file, "nvvm", "libdevice", "libdevice.10.bc");
        path = file.str().str();
      }
    LibDevice lib(path);

    std::vector<SmallString<0>> ptx(modules.size());
    if (failed(failableParallelForEachN(&getContext(), 0, modules.size(), [&](size_t i) {
          FailureOr<SmallString<0>> text =
              direct ? printDirect(modules[i]) : compile(modules[i], targets[i], lib);
          if (failed(text))
            return failure();
          ptx[i] = std::move(*text);
          return success();
        })))
      return signalPassFailure();

    // The binaries, as gpu-module-to-binary makes them (the object records
    // the optimization level), in place of the modules.
    gpu::TargetOptions options({}, {}, {}, {}, gpu::CompilationTarget::Assembly);
    for (auto [module, target, text] : llvm::zip(modules, targets, ptx)) {
      Attribute object = cast<gpu::TargetAttrInterface>(target).createObject(module, text, options);
      if (!object) {
        module.emitOpError() << "no GPU object for its PTX";
        return signalPassFailure();
      }
      OpBuilder b(module);
      gpu::BinaryOp::create(b, module.getLoc(), module.getName(), Attribute(),
                            ArrayRef<Attribute>{object});
      module.erase();
    }
  }
};

} // namespace
