//===- LLVMBackend.cpp - gpu.modules to PTX with LLVM's NVPTX back end ----===//
//
// What uop-serialize-to-ptx{printer=llvm} runs for each gpu.module: the
// translation to LLVM IR, libdevice linked only into a module that calls one
// of its `__nv_*` functions (upstream reads and links it into every module
// whenever a CUDA toolkit is found), LLVM's optimizer at the target's `O`,
// and the NVPTX back end, with target machines from a process-wide pool
// (NVPTXMachine.h) rather than one per module.
//
//===----------------------------------------------------------------------===//

#include "uop/Conversion/GPUToPTX/LLVMBackend.h"
#include "uop/Conversion/GPUToPTX/NVPTXMachine.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Target/LLVM/ModuleToObject.h"
#include "mlir/Target/LLVM/NVVM/Utils.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Transforms/IPO/Internalize.h"

#include <mutex>

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

/// Runs `fn`, returning false if LLVM stopped in it with a fatal error
/// (report_fatal_error aborts: instruction selection with no pattern for
/// an intrinsic at this chip and PTX version, say), which it has printed.
bool recoveringFromFatalErrors(llvm::function_ref<void()> fn) {
  static std::once_flag enabled;
  std::call_once(enabled, [] { llvm::CrashRecoveryContext::Enable(); });
  llvm::CrashRecoveryContext recovery;
  return recovery.RunSafely(fn);
}

/// One gpu.module's PTX, by LLVM.
FailureOr<SmallString<0>> compileWithLLVM(gpu::GPUModuleOp module, NVVM::NVVMTargetAttr target,
                                          LibDevice &libdevice) {
  // (On the heap: abandoned, never destroyed, if LLVM stops with a fatal
  // error while using it.)
  auto owned = std::make_unique<llvm::LLVMContext>();
  llvm::LLVMContext &context = *owned;
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
  // Bad input must be an error on its module, not a crash: a fatal error
  // of LLVM's is recovered from, and what it was using (the machine, the
  // module, the context, their half-made code) is left as it is.
  std::optional<std::string> optimizerError;
  FailureOr<SmallString<0>> ptx = failure();
  if (!recoveringFromFatalErrors([&] {
        if (llvm::Error e = makeOptimizingTransformer(target.getO(), 0, machine.get())(ir.get()))
          optimizerError = llvm::toString(std::move(e));
        else
          ptx = LLVM::ModuleToObject::translateModuleToISA(*ir, *machine.get(),
                                                           [&] { return module.emitOpError(); });
      })) {
    machine.abandon();
    (void)ir.release();
    (void)owned.release();
    return module.emitOpError()
           << "LLVM stopped with a fatal error (the LLVM ERROR above) compiling it to PTX for "
           << target.getChip() << " (features '" << target.getFeatures()
           << "'): it uses an operation LLVM cannot compile for that chip and PTX version";
  }
  if (optimizerError)
    return module.emitOpError() << "LLVM's optimizer failed: " << *optimizerError;
  return ptx;
}

struct NVPTXBackend : LLVMPTXBackend {
  explicit NVPTXBackend(std::string libdevice) : libdevice(std::move(libdevice)) {}
  FailureOr<SmallString<0>> compile(gpu::GPUModuleOp module, NVVM::NVVMTargetAttr target) override {
    return compileWithLLVM(module, target, libdevice);
  }
  LibDevice libdevice;
};

/// libdevice's path: `option`, else the CUDA toolkit's (found as upstream
/// finds it: CUDA_ROOT, CUDA_HOME, CUDA_PATH), else "".
std::string libDevicePath(StringRef option) {
  if (!option.empty())
    return option.str();
  StringRef toolkit = NVVM::getCUDAToolkitPath();
  if (toolkit.empty())
    return "";
  SmallString<128> file(toolkit);
  llvm::sys::path::append(file, "nvvm", "libdevice", "libdevice.10.bc");
  return file.str().str();
}

} // namespace

void mlir::uop::registerLLVMPTXBackend() {
  setLLVMPTXBackendFactory([](StringRef libdevice) -> std::unique_ptr<LLVMPTXBackend> {
    return std::make_unique<NVPTXBackend>(libDevicePath(libdevice));
  });
}
