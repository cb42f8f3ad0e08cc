//===- UOpMLIRModule.cpp - uop_mlir._uop_mlir, the C API for Python -------===//
//
// The native half of the uop_mlir package: thin pybind11 classes over the C
// API (include/uop-c and MLIR's mlir-c), as MLIR's own Python bindings sit
// on its C API. Every failing call raises uop_mlir.Error with the
// diagnostics the call produced; the work itself runs with the GIL released
// (the diagnostic handler only appends to a C++ list).
//
//===----------------------------------------------------------------------===//

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "uop-c/Compile.h"
#include "uop-c/Dialect.h"
#include "uop-c/Runtime.h"
#include "uop-c/Tinygrad.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace py = pybind11;

namespace {

/// The diagnostics of a failed call, raised as uop_mlir.Error.
struct DiagnosticError {
  std::string what;
  std::vector<std::string> diagnostics;
};

/// uop_mlir.Error, once the package has set it (never destroyed: it would
/// outlive the interpreter).
py::object &errorType() {
  static auto *type = new py::object(py::reinterpret_borrow<py::object>(PyExc_RuntimeError));
  return *type;
}

void appendTo(MlirStringRef s, void *userData) {
  static_cast<std::string *>(userData)->append(s.data, s.length);
}

MlirStringRef ref(const std::string &s) { return mlirStringRefCreate(s.data(), s.size()); }

/// A PTX compiler and the lock its compiles take: a pass manager runs one
/// pipeline at a time.
struct PTXCompilerEntry {
  explicit PTXCompilerEntry(UopPTXCompiler compiler) : compiler(compiler) {}
  ~PTXCompilerEntry() { uopPTXCompilerDestroy(compiler); }
  PTXCompilerEntry(const PTXCompilerEntry &) = delete;
  PTXCompilerEntry &operator=(const PTXCompilerEntry &) = delete;
  UopPTXCompiler compiler;
  std::mutex running;
};

/// An MLIRContext set up for uop-mlir, collecting its diagnostics.
class Context {
public:
  Context() : ctx(uopContextCreate()) {
    uopRegisterAllPasses();
    mlirContextAttachDiagnosticHandler(ctx, &Context::onDiagnostic, this, nullptr);
  }
  ~Context() {
    for (auto &[key, runner] : runners)
      uopRunnerDestroy(runner);
    ptxCompilers.clear(); // before their context; no compile holds one now
    mlirContextDestroy(ctx);
  }
  Context(const Context &) = delete;
  Context &operator=(const Context &) = delete;

  MlirContext get() const { return ctx; }

  /// Raises DiagnosticError with the diagnostics since the last take().
  [[noreturn]] void fail(const std::string &what) { throw DiagnosticError{what, take()}; }
  std::vector<std::string> take() { return std::exchange(diagnostics, {}); }

  /// One runner per target and chip, made on first use (a CUDA runner opens
  /// the driver).
  UopRunner runner(const std::string &target, const std::string &chip) {
    auto key = std::make_pair(target, chip);
    auto it = runners.find(key);
    if (it != runners.end())
      return it->second;
    take();
    UopRunner r = uopRunnerCreate(ctx, ref(target), ref(chip));
    if (uopRunnerIsNull(r))
      fail("no runner for target '" + target + "'");
    return runners[key] = r;
  }

  /// The PTX compiler for an options string, made on first use, so that
  /// compiles with the same options reuse its pass pipeline. The
  /// kMaxPTXCompilers most recently used stay: options naming each kernel's
  /// opts would otherwise keep a compiler per kernel.
  std::shared_ptr<PTXCompilerEntry> ptxCompiler(const std::string &options) {
    uint64_t now = ++ptxUses;
    auto it = ptxCompilers.find(options);
    if (it != ptxCompilers.end()) {
      it->second.second = now;
      return it->second.first;
    }
    UopPTXCompiler c = uopPTXCompilerCreate(ctx, ref(options));
    if (uopPTXCompilerIsNull(c))
      fail("cannot compile to PTX");
    auto entry = std::make_shared<PTXCompilerEntry>(c);
    if (ptxCompilers.size() >= kMaxPTXCompilers)
      ptxCompilers.erase(std::min_element(
          ptxCompilers.begin(), ptxCompilers.end(),
          [](const auto &a, const auto &b) { return a.second.second < b.second.second; }));
    ptxCompilers[options] = {entry, now};
    return entry;
  }

private:
  static MlirLogicalResult onDiagnostic(MlirDiagnostic d, void *self) {
    std::string text;
    uopDiagnosticPrint(d, appendTo, &text);
    while (!text.empty() && text.back() == '\n')
      text.pop_back();
    static_cast<Context *>(self)->diagnostics.push_back(std::move(text));
    return mlirLogicalResultSuccess();
  }

  MlirContext ctx;
  std::vector<std::string> diagnostics;
  std::map<std::pair<std::string, std::string>, UopRunner> runners;
  static constexpr size_t kMaxPTXCompilers = 8;
  /// Options -> (compiler, when last used); a compile in flight holds its
  /// compiler alive if it is evicted meanwhile.
  std::map<std::string, std::pair<std::shared_ptr<PTXCompilerEntry>, uint64_t>> ptxCompilers;
  uint64_t ptxUses = 0;
};

using ContextRef = std::shared_ptr<Context>;

/// A builtin.module of the context; owns it.
class Module {
public:
  Module(ContextRef ctx, MlirModule m) : ctx(std::move(ctx)), m(m) {}
  ~Module() { mlirModuleDestroy(m); }
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;

  static std::unique_ptr<Module> parse(ContextRef ctx, const std::string &text) {
    ctx->take();
    MlirModule m;
    {
      py::gil_scoped_release release;
      m = mlirModuleCreateParse(ctx->get(), ref(text));
    }
    if (mlirModuleIsNull(m))
      ctx->fail("cannot parse the module");
    return std::make_unique<Module>(ctx, m);
  }

  static std::unique_ptr<Module> empty(ContextRef ctx) {
    return std::make_unique<Module>(ctx, mlirModuleCreateEmpty(mlirLocationUnknownGet(ctx->get())));
  }

  std::unique_ptr<Module> clone() const {
    return std::make_unique<Module>(
        ctx, mlirModuleFromOperation(mlirOperationClone(mlirModuleGetOperation(m))));
  }

  std::string str() const {
    std::string out;
    mlirOperationPrint(mlirModuleGetOperation(m), appendTo, &out);
    return out;
  }

  bool verify() const { return mlirOperationVerify(mlirModuleGetOperation(m)); }

  /// The uop.kernel symbols, in order.
  std::vector<std::string> kernels() const {
    std::vector<std::string> names;
    MlirIdentifier kernelOp =
        mlirIdentifierGet(ctx->get(), mlirStringRefCreateFromCString("uop.kernel"));
    for (MlirOperation op = mlirBlockGetFirstOperation(mlirModuleGetBody(m));
         !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
      if (!mlirIdentifierEqual(mlirOperationGetName(op), kernelOp))
        continue;
      MlirAttribute sym =
          mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("sym_name"));
      MlirStringRef s = mlirStringAttrGetValue(sym);
      names.emplace_back(s.data, s.length);
    }
    return names;
  }

  /// The schedules (functions uop-kernelize made, with uop.outputs), in order.
  std::vector<std::string> schedules() const {
    std::vector<std::string> names;
    MlirIdentifier funcOp =
        mlirIdentifierGet(ctx->get(), mlirStringRefCreateFromCString("func.func"));
    for (MlirOperation op = mlirBlockGetFirstOperation(mlirModuleGetBody(m));
         !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
      if (!mlirIdentifierEqual(mlirOperationGetName(op), funcOp) ||
          mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(
              op, mlirStringRefCreateFromCString("uop.outputs"))))
        continue;
      MlirAttribute sym =
          mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("sym_name"));
      MlirStringRef s = mlirStringAttrGetValue(sym);
      names.emplace_back(s.data, s.length);
    }
    return names;
  }

  void importTinygrad(const std::string &json, const std::string &filename,
                      const std::string &defaultName) {
    ctx->take();
    MlirLogicalResult r;
    {
      py::gil_scoped_release release;
      r = uopImportTinygradKernel(m, ref(json), ref(filename), ref(defaultName));
    }
    if (mlirLogicalResultIsFailure(r))
      ctx->fail("cannot import the tinygrad kernel " + filename);
  }

  std::string exportTinygrad(const std::string &name) {
    ctx->take();
    std::string out;
    if (mlirLogicalResultIsFailure(uopExportTinygradKernel(m, ref(name), appendTo, &out)))
      ctx->fail("cannot export kernel '" + name + "'");
    return out;
  }

  void importTinygradGraph(const std::string &json, const std::string &filename,
                           const std::string &defaultName) {
    ctx->take();
    MlirLogicalResult r;
    {
      py::gil_scoped_release release;
      r = uopImportTinygradGraph(m, ref(json), ref(filename), ref(defaultName));
    }
    if (mlirLogicalResultIsFailure(r))
      ctx->fail("cannot import the tinygrad graph " + filename);
  }

  std::string exportSchedule(const std::string &name) {
    ctx->take();
    std::string out;
    if (mlirLogicalResultIsFailure(uopExportTinygradSchedule(m, ref(name), appendTo, &out)))
      ctx->fail("cannot export schedule '" + name + "'");
    return out;
  }

  std::string describeSchedule(const std::string &name) {
    ctx->take();
    std::string out;
    if (mlirLogicalResultIsFailure(uopScheduleDescribe(m, ref(name), appendTo, &out)))
      ctx->fail("no schedule '" + name + "'");
    return out;
  }

  /// Runs schedule `name` on host memory (argument i: `pointers[i]`,
  /// `sizes[i]` bytes, updated in place).
  void runSchedule(const std::string &name, const std::string &target, const std::string &chip,
                   const std::vector<uintptr_t> &pointers, const std::vector<uint64_t> &sizes) {
    if (pointers.size() != sizes.size())
      throw py::value_error("as many sizes as pointers are needed");
    UopRunner runner = ctx->runner(target, chip);
    ctx->take();
    std::vector<void *> buffers;
    for (uintptr_t p : pointers)
      buffers.push_back(reinterpret_cast<void *>(p));
    MlirLogicalResult r;
    {
      py::gil_scoped_release release;
      r = uopScheduleRun(runner, m, ref(name), buffers.size(), buffers.data(), sizes.data());
    }
    if (mlirLogicalResultIsFailure(r))
      ctx->fail("schedule " + name + " failed on " + target);
  }

  /// Result `index` of the schedule's tensor graph into `out` (`outBytes`).
  void readOutput(const std::string &name, intptr_t index, const std::vector<uintptr_t> &pointers,
                  const std::vector<uint64_t> &sizes, uintptr_t out, uint64_t outBytes) {
    if (pointers.size() != sizes.size())
      throw py::value_error("as many sizes as pointers are needed");
    ctx->take();
    std::vector<void *> buffers;
    for (uintptr_t p : pointers)
      buffers.push_back(reinterpret_cast<void *>(p));
    if (mlirLogicalResultIsFailure(uopScheduleReadOutput(m, ref(name), index, buffers.size(),
                                                         buffers.data(), sizes.data(),
                                                         reinterpret_cast<void *>(out), outBytes)))
      ctx->fail("cannot read output " + std::to_string(index) + " of schedule " + name);
  }

  void runPipeline(const std::string &pipeline) {
    ctx->take();
    MlirLogicalResult r;
    {
      py::gil_scoped_release release;
      r = uopRunPassPipeline(m, ref(pipeline));
    }
    if (mlirLogicalResultIsFailure(r))
      ctx->fail("pipeline failed: " + pipeline);
  }

  ContextRef ctx;
  MlirModule m;
};

/// One kernel of uopCompileToPTX's result (kept alive by its kernels).
struct PTXKernel {
  std::shared_ptr<UopPTXKernels> all;
  intptr_t pos;
  ContextRef ctx;

  static std::string str(MlirStringRef s) { return std::string(s.data, s.length); }
  std::string name() const { return str(uopPTXKernelsGetName(*all, pos)); }
  std::string chip() const { return str(uopPTXKernelsGetChip(*all, pos)); }
  std::string ptx() const { return str(uopPTXKernelsGetPTX(*all, pos)); }
  std::array<std::array<int32_t, 3>, 2> bounds() const {
    std::array<std::array<int32_t, 3>, 2> dims;
    uopPTXKernelsGetLaunchDims(*all, pos, dims[0].data(), dims[1].data());
    return dims;
  }
  py::list variables() const {
    py::list out;
    for (intptr_t i = 0, e = uopPTXKernelsGetNumVariables(*all, pos); i < e; ++i) {
      int64_t lo, hi;
      uopPTXKernelsGetVariableBounds(*all, pos, i, &lo, &hi);
      out.append(py::make_tuple(str(uopPTXKernelsGetVariableName(*all, pos, i)), lo, hi));
    }
    return out;
  }
  /// [(slot, constant, [(variable, coefficient)])]
  py::list symbolicSizes() const {
    py::list out;
    for (intptr_t i = 0, e = uopPTXKernelsGetNumSymbolicSizes(*all, pos); i < e; ++i) {
      int32_t slot;
      int64_t constant;
      intptr_t numTerms;
      uopPTXKernelsGetSymbolicSize(*all, pos, i, &slot, &constant, &numTerms);
      py::list terms;
      for (intptr_t t = 0; t < numTerms; ++t) {
        MlirStringRef var;
        int64_t coef;
        uopPTXKernelsGetSymbolicSizeTerm(*all, pos, i, t, &var, &coef);
        terms.append(py::make_tuple(str(var), coef));
      }
      out.append(py::make_tuple(slot, constant, terms));
    }
    return out;
  }
  /// [{buffer, element, sizes, strides, box, swizzle}], innermost first.
  py::list tensorMaps() const {
    py::list out;
    for (intptr_t i = 0, e = uopPTXKernelsGetNumTensorMaps(*all, pos); i < e; ++i) {
      intptr_t buffer, rank;
      MlirStringRef element;
      int64_t sizes[5], strides[4], box[5], swizzle;
      uopPTXKernelsGetTensorMap(*all, pos, i, &buffer, &element, &rank, sizes, strides, box,
                                &swizzle);
      auto list = [](const int64_t *xs, intptr_t n) {
        return py::cast(std::vector<int64_t>(xs, xs + n));
      };
      py::dict m;
      m["buffer"] = buffer;
      m["element"] = str(element);
      m["sizes"] = list(sizes, rank);
      m["strides"] = list(strides, rank - 1);
      m["box"] = list(box, rank);
      m["swizzle"] = swizzle;
      out.append(m);
    }
    return out;
  }
  py::tuple launchDims(const std::vector<int64_t> &vars) const {
    std::array<int32_t, 3> grid, block;
    ctx->take();
    if (mlirLogicalResultIsFailure(uopPTXKernelsEvaluateLaunchDims(
            ctx->get(), *all, pos, vars.size(), vars.data(), grid.data(), block.data())))
      ctx->fail("no launch dimensions for kernel " + name());
    return py::make_tuple(py::make_tuple(grid[0], grid[1], grid[2]),
                          py::make_tuple(block[0], block[1], block[2]));
  }
};

std::vector<PTXKernel> compilePTX(Module &module, const std::string &options) {
  module.ctx->take();
  std::shared_ptr<PTXCompilerEntry> compiler = module.ctx->ptxCompiler(options);
  UopPTXKernels ks;
  {
    py::gil_scoped_release release;
    std::lock_guard<std::mutex> lock(compiler->running);
    ks = uopPTXCompilerCompile(compiler->compiler, module.m);
  }
  if (uopPTXKernelsIsNull(ks))
    module.ctx->fail("cannot compile to PTX");
  auto all = std::shared_ptr<UopPTXKernels>(new UopPTXKernels(ks), [](UopPTXKernels *k) {
    uopPTXKernelsDestroy(*k);
    delete k;
  });
  std::vector<PTXKernel> out;
  for (intptr_t i = 0, e = uopPTXKernelsGetNum(ks); i < e; ++i)
    out.push_back(PTXKernel{all, i, module.ctx});
  return out;
}

std::string compileHostLLVMIR(Module &module, const std::string &options) {
  module.ctx->take();
  std::string ir;
  MlirLogicalResult r;
  {
    py::gil_scoped_release release;
    r = uopCompileToHostLLVMIR(module.m, ref(options), appendTo, &ir);
  }
  if (mlirLogicalResultIsFailure(r))
    module.ctx->fail("cannot compile for the host");
  return ir;
}

/// A kernel compiled for cpu, sim or cuda.
class Kernel {
public:
  Kernel(ContextRef ctx, UopKernel k, std::string name, std::string target, std::string chip)
      : ctx(std::move(ctx)), k(k), name(std::move(name)), target(std::move(target)),
        chip(std::move(chip)) {}
  ~Kernel() { uopKernelDestroy(k); }
  Kernel(const Kernel &) = delete;
  Kernel &operator=(const Kernel &) = delete;

  /// Runs on host memory: `pointers[i]` holds `sizes[i]` bytes. Returns the
  /// run's milliseconds.
  double run(const std::vector<uintptr_t> &pointers, const std::vector<uint64_t> &sizes,
             const std::vector<int64_t> &vars) {
    if (pointers.size() != sizes.size())
      throw py::value_error("as many sizes as pointers are needed");
    std::vector<void *> buffers;
    for (uintptr_t p : pointers)
      buffers.push_back(reinterpret_cast<void *>(p));
    ctx->take();
    double ms = 0;
    MlirLogicalResult r;
    {
      py::gil_scoped_release release;
      r = uopKernelRun(k, buffers.size(), buffers.data(), sizes.data(), vars.size(), vars.data(),
                       &ms);
    }
    if (mlirLogicalResultIsFailure(r))
      ctx->fail("kernel " + name + " failed on " + target);
    return ms;
  }

  py::object launchDims() const {
    std::array<int32_t, 3> grid, block;
    if (!uopKernelGetLaunchDims(k, grid.data(), block.data()))
      return py::none();
    return py::make_tuple(py::make_tuple(grid[0], grid[1], grid[2]),
                          py::make_tuple(block[0], block[1], block[2]));
  }

  ContextRef ctx;
  UopKernel k;
  std::string name, target, chip;
};

std::unique_ptr<Kernel> compileKernel(Module &module, const std::string &name,
                                      const std::string &target, const std::string &chip,
                                      const std::string &options, bool checkAccesses) {
  UopRunner runner = module.ctx->runner(target, chip);
  module.ctx->take();
  uopRunnerSetAccessChecks(runner, checkAccesses);
  UopKernel k;
  {
    py::gil_scoped_release release;
    k = uopRunnerCompile(runner, module.m, ref(name), ref(options));
  }
  if (uopKernelIsNull(k))
    module.ctx->fail("cannot compile kernel '" + name + "' for " + target);
  MlirStringRef r = uopRunnerGetName(runner), c = uopRunnerGetChip(runner);
  return std::make_unique<Kernel>(module.ctx, k, name, std::string(r.data, r.length),
                                  std::string(c.data, c.length));
}

} // namespace

PYBIND11_MODULE(_uop_mlir, m) {
  m.doc() = "uop-mlir's C API for Python (use the uop_mlir package)";

  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p)
        std::rethrow_exception(p);
    } catch (const DiagnosticError &e) {
      py::object err = errorType()(e.what, e.diagnostics);
      PyErr_SetObject(errorType().ptr(), err.ptr());
    }
  });
  m.def("_set_error_type", [](py::object type) { errorType() = std::move(type); });

  m.def("version", [] {
    MlirStringRef v = uopGetVersion();
    return std::string(v.data, v.length);
  });

  py::class_<Context, ContextRef>(m, "Context")
      .def(py::init<>())
      .def("chip_for_compute_capability", [](Context &c, int major, int minor) {
        std::string chip;
        uopChipForComputeCapability(c.get(), major, minor, appendTo, &chip);
        return chip;
      });

  py::class_<Module>(m, "Module")
      .def_static("parse", &Module::parse, py::arg("context"), py::arg("text"))
      .def_static("empty", &Module::empty, py::arg("context"))
      .def("clone", &Module::clone)
      .def("__str__", &Module::str)
      .def("verify", &Module::verify)
      .def_property_readonly("kernels", &Module::kernels)
      .def_property_readonly("schedules", &Module::schedules)
      .def_readonly("context", &Module::ctx)
      .def("import_tinygrad", &Module::importTinygrad, py::arg("json"), py::arg("filename"),
           py::arg("default_name"))
      .def("export_tinygrad", &Module::exportTinygrad, py::arg("name"))
      .def("run_pipeline", &Module::runPipeline, py::arg("pipeline"))
      .def("import_tinygrad_graph", &Module::importTinygradGraph, py::arg("json"),
           py::arg("filename"), py::arg("default_name"))
      .def("export_schedule", &Module::exportSchedule, py::arg("name"))
      .def("describe_schedule", &Module::describeSchedule, py::arg("name"))
      .def("run_schedule", &Module::runSchedule, py::arg("name"), py::arg("target"),
           py::arg("chip"), py::arg("pointers"), py::arg("sizes"))
      .def("read_output", &Module::readOutput, py::arg("name"), py::arg("index"),
           py::arg("pointers"), py::arg("sizes"), py::arg("out"), py::arg("out_bytes"));

  py::class_<PTXKernel>(m, "PTXKernel")
      .def_property_readonly("name", &PTXKernel::name)
      .def_property_readonly("chip", &PTXKernel::chip)
      .def_property_readonly("ptx", &PTXKernel::ptx)
      .def_property_readonly("grid",
                             [](const PTXKernel &k) {
                               auto [g, b] = k.bounds();
                               return py::make_tuple(g[0], g[1], g[2]);
                             })
      .def_property_readonly("block",
                             [](const PTXKernel &k) {
                               auto [g, b] = k.bounds();
                               return py::make_tuple(b[0], b[1], b[2]);
                             })
      .def_property_readonly("variables", &PTXKernel::variables)
      .def_property_readonly("symbolic_sizes", &PTXKernel::symbolicSizes)
      .def_property_readonly("tensor_maps", &PTXKernel::tensorMaps)
      .def("evaluate_launch_dims", &PTXKernel::launchDims, py::arg("vars"))
      .def("__repr__", [](const PTXKernel &k) {
        auto [g, b] = k.bounds();
        auto dims = [](const std::array<int32_t, 3> &d) {
          return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
        };
        return "<PTXKernel " + k.name() + " for " + k.chip() + ", grid " + dims(g) + ", block " +
               dims(b) + ">";
      });

  m.def("compile_ptx", &compilePTX, py::arg("module"), py::arg("options"));
  m.def("compile_host_llvm_ir", &compileHostLLVMIR, py::arg("module"), py::arg("options"));
  m.def("compile_kernel", &compileKernel, py::arg("module"), py::arg("name"), py::arg("target"),
        py::arg("chip"), py::arg("options"), py::arg("check_accesses"));

  py::class_<Kernel>(m, "Kernel")
      .def_readonly("name", &Kernel::name)
      .def_readonly("target", &Kernel::target)
      .def_readonly("chip", &Kernel::chip)
      .def_property_readonly("num_buffers",
                             [](const Kernel &k) { return uopKernelGetNumBuffers(k.k); })
      .def_property_readonly("applied_opts",
                             [](const Kernel &k) {
                               MlirStringRef s = uopKernelGetAppliedOpts(k.k);
                               return std::string(s.data, s.length);
                             })
      .def_property_readonly("launch_dims", &Kernel::launchDims)
      .def_property_readonly("variables",
                             [](const Kernel &k) {
                               py::list out;
                               for (intptr_t i = 0; i < uopKernelGetNumVariables(k.k); ++i) {
                                 MlirStringRef n = uopKernelGetVariableName(k.k, i);
                                 int64_t lo, hi;
                                 uopKernelGetVariableBounds(k.k, i, &lo, &hi);
                                 out.append(py::make_tuple(std::string(n.data, n.length), lo, hi));
                               }
                               return out;
                             })
      .def("run", &Kernel::run, py::arg("pointers"), py::arg("sizes"), py::arg("vars"));
}
