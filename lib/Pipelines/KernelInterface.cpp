//===- KernelInterface.cpp - what a caller passes a compiled kernel -------===//

#include "uop/Pipelines/KernelInterface.h"

#include "uop/Conversion/Common/KernelEmitter.h"
#include "uop/Dialect/UOp/IR/LaunchLimits.h"
#include "uop/Dialect/UOp/IR/UOpDialect.h"
#include "uop/Dialect/UOp/IR/UOpOps.h"

#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/FormatVariadic.h"

#include <climits>

using namespace mlir;
using namespace mlir::uop;

std::string SymbolicSize::str() const {
  std::string s;
  for (auto [var, coef] : terms)
    s += (s.empty() ? "" : "+") + (coef == 1 ? "" : std::to_string(coef) + "*") + var;
  if (constant || s.empty())
    s += (s.empty() || constant < 0 ? "" : "+") + std::to_string(constant);
  return s;
}

static int32_t &sizeAt(LaunchDims &d, unsigned slot) {
  return slot < 3 ? d.grid[slot] : d.block[slot - 3];
}

llvm::Expected<LaunchDims> LaunchDims::evaluate(ArrayRef<KernelVariable> vars,
                                                ArrayRef<int64_t> values) const {
  LaunchDims at{grid, block, {}, tensorMaps, cluster};
  for (const SymbolicSize &s : symbolic) {
    std::optional<int64_t> v = s.constant;
    for (auto [var, coef] : s.terms) {
      const auto &name = var; // C++17 lambdas cannot capture a structured binding
      auto it = llvm::find_if(vars, [&](const KernelVariable &k) { return k.name == name; });
      if (it == vars.end() || size_t(it - vars.begin()) >= values.size())
        return llvm::createStringError("the launch size " + s.str() + " needs variable " + var +
                                       ", which the kernel does not take");
      std::optional<int64_t> term = llvm::checkedMul(coef, values[it - vars.begin()]);
      v = v && term ? llvm::checkedAdd(*v, *term) : std::nullopt;
    }
    int32_t &size = sizeAt(at, s.slot);
    if (!v || *v < 0 || *v > size)
      return llvm::createStringError(
          "the launch size " + s.str() + " is " + (v ? std::to_string(*v) : "out of range") +
          " for these variables, outside [0, " + std::to_string(size) + "]");
    size = static_cast<int32_t>(*v);
  }
  return at;
}

bool LaunchDims::isEmpty() const {
  return llvm::is_contained(grid, 0) || llvm::is_contained(block, 0);
}

std::string LaunchDims::str() const {
  std::string s;
  for (unsigned slot = 0; slot < 6; ++slot) {
    s += slot == 0 ? "grid=" : slot == 3 ? " block=" : ",";
    auto sym = llvm::find_if(symbolic, [&](const SymbolicSize &e) { return e.slot == slot; });
    s += sym != symbolic.end() ? sym->str()
                               : std::to_string(slot < 3 ? grid[slot] : block[slot - 3]);
  }
  return s;
}

llvm::Error mlir::uop::checkVariableValues(StringRef kernel, ArrayRef<KernelVariable> vars,
                                           ArrayRef<int64_t> values) {
  if (values.size() != vars.size()) {
    std::string names;
    for (const KernelVariable &v : vars)
      names += (names.empty() ? "" : ", ") + v.name;
    return llvm::createStringError("kernel " + kernel + " takes " + llvm::Twine(vars.size()) +
                                   " variable values" + (names.empty() ? "" : " (" + names + ")") +
                                   ", not " + llvm::Twine(values.size()));
  }
  for (auto [v, value] : llvm::zip(vars, values))
    if (value < v.min || value > v.max)
      return llvm::createStringError("kernel " + kernel + ": variable " + v.name + " = " +
                                     llvm::Twine(value) + " is outside its range [" +
                                     llvm::Twine(v.min) + ", " + llvm::Twine(v.max) + "]");
  return llvm::Error::success();
}

llvm::Error mlir::uop::checkTensorMapBuffers(StringRef kernel, ArrayRef<TensorMapSpec> maps,
                                             ArrayRef<MutableArrayRef<uint8_t>> buffers) {
  for (auto [i, m] : llvm::enumerate(maps)) {
    if (m.buffer >= buffers.size())
      return llvm::createStringError(
          llvm::formatv("tensor map {0} of kernel {1} ({2}) is of buffer {3}, but the kernel "
                        "was given {4} buffers",
                        i, kernel, m.str(), m.buffer, buffers.size()));
    if (static_cast<int64_t>(buffers[m.buffer].size()) < m.extentBytes)
      return llvm::createStringError(
          llvm::formatv("tensor map {0} of kernel {1} ({2}) covers {3} bytes of buffer {4}, "
                        "which has {5}",
                        i, kernel, m.str(), m.extentBytes, m.buffer, buffers[m.buffer].size()));
  }
  return llvm::Error::success();
}

llvm::Expected<LaunchDims> mlir::uop::launchDimsFor(StringRef kernel, const LaunchDims &launch,
                                                    ArrayRef<KernelVariable> vars,
                                                    ArrayRef<int64_t> values) {
  if (llvm::Error e = checkVariableValues(kernel, vars, values))
    return std::move(e);
  llvm::Expected<LaunchDims> dims = launch.evaluate(vars, values);
  if (!dims)
    return llvm::createStringError("kernel " + kernel + ": " + llvm::toString(dims.takeError()));
  // A kernel of imported PTX says its own sizes; a simulated block of 2^32
  // threads would overflow the simulator's thread indices.
  auto limits = [](const int64_t(&dims)[3]) {
    return llvm::formatv("{0},{1},{2}", dims[0], dims[1], dims[2]).str();
  };
  int64_t threads = 1;
  for (unsigned i = 0; i < 3; ++i) {
    if (dims->grid[i] > kCudaGridMax[i] || dims->block[i] > kCudaBlockMax[i])
      return llvm::createStringError("kernel " + kernel + ": " + dims->str() +
                                     " is over CUDA's launch limits (grid " + limits(kCudaGridMax) +
                                     ", block " + limits(kCudaBlockMax) + ")");
    threads *= dims->block[i];
  }
  if (threads > kCudaThreadsPerBlock)
    return llvm::createStringError(
        "kernel " + kernel + ": " + dims->str() + " has " + llvm::Twine(threads) +
        " threads per block; CUDA launches at most " + llvm::Twine(kCudaThreadsPerBlock));
  // Clusters (the kernel's .reqnctapercluster): the grid is whole clusters
  // of at most the portable size (cudaFuncAttributeNonPortableClusterSizeAllowed
  // is not set).
  auto xyz = [](const std::array<int32_t, 3> &d) {
    return llvm::formatv("({0}, {1}, {2})", d[0], d[1], d[2]).str();
  };
  int64_t ctas = int64_t(dims->cluster[0]) * dims->cluster[1] * dims->cluster[2];
  if (ctas > kCudaPortableClusterSize)
    return llvm::createStringError("kernel " + kernel + ": its clusters of " + xyz(dims->cluster) +
                                   " blocks have more than CUDA's portable " +
                                   llvm::Twine(kCudaPortableClusterSize));
  if (!dims->isEmpty())
    for (unsigned i = 0; i < 3; ++i)
      if (dims->grid[i] % dims->cluster[i])
        return llvm::createStringError("kernel " + kernel + ": its grid " + xyz(dims->grid) +
                                       " is not a whole number of its clusters " +
                                       xyz(dims->cluster));
  return dims;
}

std::string TensorMapSpec::str() const {
  auto list = [](ArrayRef<int64_t> xs) {
    std::string s;
    for (int64_t x : xs)
      s += (s.empty() ? "" : ",") + std::to_string(x);
    return s;
  };
  return llvm::formatv("buffer{0}:{1}:sizes=[{2}]:strides=[{3}]:box=[{4}]:swizzle={5}", buffer,
                       element, list(sizes), list(strides), list(box), swizzle)
      .str();
}

std::string mlir::uop::ptxHeaderLine(StringRef name, const LaunchDims &launch,
                                     ArrayRef<KernelVariable> variables) {
  std::string s = "// uop-mlir kernel " + name.str() + " " + launch.str();
  for (auto [i, v] : llvm::enumerate(variables))
    s += (i ? "," : " variables=") + v.name + "[" + std::to_string(v.min) + "," +
         std::to_string(v.max) + "]";
  for (auto [i, m] : llvm::enumerate(launch.tensorMaps))
    s += (i ? ";" : " tensor_maps=") + m.str();
  return s;
}

std::optional<LaunchDims> LaunchDims::read(Attribute entry) {
  auto dict = dyn_cast_or_null<DictionaryAttr>(entry);
  if (!dict)
    return std::nullopt;
  std::optional<std::array<int32_t, 3>> grid = readLaunchSize(dict.get("grid")),
                                        block = readLaunchSize(dict.get("block"));
  std::optional<SmallVector<SymEntryAttr>> sym = readLaunchSymbolic(dict.get("sym"));
  std::optional<SmallVector<TensorMapAttr>> maps = readLaunchTensorMaps(dict.get("tensor_maps"));
  if (!grid || !block || !sym || !maps)
    return std::nullopt;
  LaunchDims d{*grid, *block, {}, {}};
  for (SymEntryAttr e : *sym) {
    SymbolicSize s{static_cast<unsigned>(e.getSlot()), e.getConstant(), {}};
    for (auto [coef, var] : llvm::zip(e.getCoefs(), e.getVars()))
      s.terms.push_back({var.str(), coef});
    d.symbolic.push_back(std::move(s));
  }
  for (TensorMapAttr m : *maps) {
    TensorMapSpec t;
    t.buffer = static_cast<unsigned>(m.getBuffer());
    llvm::raw_string_ostream os(t.element);
    if (auto i = dyn_cast<IntegerType>(m.getElement()))
      os << "i" << i.getWidth(); // TMA copies bytes: signedness does not matter
    else
      os << m.getElement();
    t.elementBytes = m.getElementBytes();
    t.sizes.assign(m.getSizes().begin(), m.getSizes().end());
    t.strides.assign(m.getStrides().begin(), m.getStrides().end());
    t.box.assign(m.getBox().begin(), m.getBox().end());
    t.swizzle = m.getSwizzle();
    t.boxBytes = m.getBoxBytes();
    t.extentBytes = m.getExtentBytes();
    d.tensorMaps.push_back(std::move(t));
  }
  return d;
}

std::vector<KernelVariable> mlir::uop::declaredVariables(ModuleOp module, StringRef name) {
  std::vector<KernelVariable> declared;
  if (auto kernel = module.lookupSymbol<KernelOp>(name))
    for (DefineVarOp v : kernelVariables(kernel))
      declared.push_back(
          {v.getName().str(), static_cast<int64_t>(v.getMin()), static_cast<int64_t>(v.getMax())});
  return declared;
}

std::vector<KernelVariable> mlir::uop::takenVariables(ModuleOp module, StringRef name,
                                                      unsigned numBuffers, unsigned count,
                                                      ArrayRef<KernelVariable> declared) {
  DictionaryAttr names = UOpDialect::VariablesAttrHelper(module.getContext()).getAttr(module);
  auto ofKernel = names ? names.getAs<ArrayAttr>(name) : ArrayAttr();
  std::vector<KernelVariable> taken;
  for (unsigned i = 0; i < count; ++i) {
    auto named = ofKernel && i < ofKernel.size() ? dyn_cast<StringAttr>(ofKernel[i]) : nullptr;
    KernelVariable v{named ? named.str() : "arg" + std::to_string(numBuffers + i), INT32_MIN,
                     INT32_MAX};
    for (const KernelVariable &d : declared)
      if (d.name == v.name)
        v = d;
    taken.push_back(v);
  }
  return taken;
}
