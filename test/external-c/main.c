/*===- main.c - a C program on uop-mlir's C API ----------------------------===*\
|*                                                                            *|
|* usage: uop-c-consumer KERNEL.json A.bin B.bin EXPECTED.bin KV_ROWS.json    *|
|*                                                                            *|
|* Imports a tinygrad kernel out[i] = a[i] + b[i] of 128 floats (the corpus's *|
|* add/k0), runs it on the CPU and on the GPU simulator on the given inputs   *|
|* and compares with the expected output, compiles it to PTX and to host LLVM *|
|* IR, runs a pass pipeline given as text, and shows that bad input (JSON,    *|
|* pipeline, options, target) comes back as located diagnostics. Then a       *|
|* symbolic kernel (KV_ROWS.json: out[i] = 2 * sum of row i of a 16x8 cache,  *|
|* for the first n rows, n a variable in [1, 15]): its PTX's variables and    *|
|* symbolic launch size, evaluated for values of n, and runs on the simulator *|
|* with n = 3 and 15. Last, a tensor graph (out = (a + b) * 2): imported,    *|
|* kernelized into tinygrad's kernel and schedule, run on the CPU, its result *|
|* read back, and the schedule exported. Exit 0 only when every step did what *|
|* it should.                                                                 *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "uop-c/Compile.h"
#include "uop-c/Dialect.h"
#include "uop-c/Runtime.h"
#include "uop-c/Tinygrad.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 128

static int failures = 0;
#define EXPECT(cond, what)                                                                         \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      printf("FAIL: %s\n", what);                                                                  \
      ++failures;                                                                                  \
    }                                                                                              \
  } while (0)

static void printString(MlirStringRef s, void *userData) {
  fwrite(s.data, 1, s.length, (FILE *)userData);
}

/* Every diagnostic, with its location, on stdout. */
static MlirLogicalResult onDiagnostic(MlirDiagnostic d, void *userData) {
  (void)userData;
  printf("diagnostic: ");
  mlirLocationPrint(mlirDiagnosticGetLocation(d), printString, stdout);
  printf(": ");
  mlirDiagnosticPrint(d, printString, stdout);
  printf("\n");
  return mlirLogicalResultSuccess();
}

static char *readFile(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    printf("error: cannot open %s\n", path);
    exit(2);
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *data = malloc(n + 1);
  if (fread(data, 1, n, f) != (size_t)n)
    exit(2);
  data[n] = 0;
  fclose(f);
  *size = (size_t)n;
  return data;
}

/* A copy of `m` to compile: each compile lowers its module in place. */
static MlirModule cloneModule(MlirModule m) {
  return mlirModuleFromOperation(mlirOperationClone(mlirModuleGetOperation(m)));
}

static void run(MlirContext ctx, MlirModule kernelModule, const char *target, const float *a,
                const float *b, const float *expected) {
  UopRunner runner = uopRunnerCreate(ctx, mlirStringRefCreateFromCString(target),
                                     mlirStringRefCreateFromCString(""));
  EXPECT(!uopRunnerIsNull(runner), "runner");
  if (uopRunnerIsNull(runner))
    return;
  MlirModule m = cloneModule(kernelModule);
  UopKernel k = uopRunnerCompile(runner, m, mlirStringRefCreateFromCString("add_k0"),
                                 mlirStringRefCreateFromCString(""));
  EXPECT(!uopKernelIsNull(k), "compile");
  if (!uopKernelIsNull(k)) {
    /* 16-byte aligned, as GPU code assumes of its buffers */
    float *out = aligned_alloc(16, N * 4), *in0 = aligned_alloc(16, N * 4),
          *in1 = aligned_alloc(16, N * 4);
    memcpy(in0, a, N * 4);
    memcpy(in1, b, N * 4);
    memset(out, 0, N * 4);
    void *buffers[3] = {out, in0, in1};
    uint64_t sizes[3] = {N * 4, N * 4, N * 4};
    EXPECT(mlirLogicalResultIsSuccess(uopKernelRun(k, 3, buffers, sizes, 0, NULL, NULL)), "run");
    int equal = 0;
    for (int i = 0; i < N; ++i)
      equal += fabsf(out[i] - expected[i]) <= 1e-6f * fabsf(expected[i]);
    MlirStringRef opts = uopKernelGetAppliedOpts(k);
    printf("add_k0 on %s: %d of %d equal, %ld buffers, opts '%.*s'", target, equal, N,
           (long)uopKernelGetNumBuffers(k), (int)opts.length, opts.data);
    int32_t grid[3], block[3];
    if (uopKernelGetLaunchDims(k, grid, block))
      printf(", grid %dx%dx%d, block %dx%dx%d", grid[0], grid[1], grid[2], block[0], block[1],
             block[2]);
    printf("\n");
    EXPECT(equal == N, "results");
    /* a buffer too small is an error, not a write past it */
    sizes[0] = 16;
    EXPECT(mlirLogicalResultIsFailure(uopKernelRun(k, 3, buffers, sizes, 0, NULL, NULL)),
           "small buffer refused");
    free(out);
    free(in0);
    free(in1);
    uopKernelDestroy(k);
  }
  mlirModuleDestroy(m);
  uopRunnerDestroy(runner);
}

/* The symbolic kernel kv_rows: PTX with its variables and launch sizes, and
   sim runs for two values of n. */
static void symbolic(MlirContext ctx, const char *path) {
  size_t jsonSize;
  char *json = readFile(path, &jsonSize);
  MlirModule module = mlirModuleCreateEmpty(mlirLocationUnknownGet(ctx));
  EXPECT(mlirLogicalResultIsSuccess(uopImportTinygradKernel(
             module, (MlirStringRef){json, jsonSize}, mlirStringRefCreateFromCString(path),
             mlirStringRefCreateFromCString("kv_rows"))),
         "import kv_rows");

  MlirModule ptxModule = cloneModule(module);
  UopPTXKernels ptx = uopCompileToPTX(ptxModule, mlirStringRefCreateFromCString("chip=sm_80"));
  EXPECT(!uopPTXKernelsIsNull(ptx) && uopPTXKernelsGetNum(ptx) == 1, "kv_rows to PTX");
  if (!uopPTXKernelsIsNull(ptx)) {
    for (intptr_t v = 0; v < uopPTXKernelsGetNumVariables(ptx, 0); ++v) {
      MlirStringRef name = uopPTXKernelsGetVariableName(ptx, 0, v);
      int64_t lo, hi;
      uopPTXKernelsGetVariableBounds(ptx, 0, v, &lo, &hi);
      printf("symbolic ptx: variable %.*s in [%lld, %lld]\n", (int)name.length, name.data,
             (long long)lo, (long long)hi);
    }
    for (intptr_t i = 0; i < uopPTXKernelsGetNumSymbolicSizes(ptx, 0); ++i) {
      int32_t slot;
      int64_t constant;
      intptr_t terms;
      uopPTXKernelsGetSymbolicSize(ptx, 0, i, &slot, &constant, &terms);
      printf("symbolic ptx: size %d = %lld", slot, (long long)constant);
      for (intptr_t t = 0; t < terms; ++t) {
        MlirStringRef var;
        int64_t coef;
        uopPTXKernelsGetSymbolicSizeTerm(ptx, 0, i, t, &var, &coef);
        printf(" + %lld * %.*s", (long long)coef, (int)var.length, var.data);
      }
      printf("\n");
    }
    int32_t grid[3], block[3];
    int64_t values[] = {3, 16};
    for (int i = 0; i < 2; ++i)
      if (mlirLogicalResultIsSuccess(
              uopPTXKernelsEvaluateLaunchDims(ctx, ptx, 0, 1, &values[i], grid, block)))
        printf("symbolic ptx: n = %lld: grid %dx%dx%d, block %dx%dx%d\n", (long long)values[i],
               grid[0], grid[1], grid[2], block[0], block[1], block[2]);
    uopPTXKernelsDestroy(ptx);
  }
  mlirModuleDestroy(ptxModule);

  UopRunner runner = uopRunnerCreate(ctx, mlirStringRefCreateFromCString("sim"),
                                     mlirStringRefCreateFromCString("sm_80"));
  UopKernel k = uopRunnerCompile(runner, module, mlirStringRefCreateFromCString("kv_rows"),
                                 mlirStringRefCreateFromCString(""));
  EXPECT(!uopKernelIsNull(k), "compile kv_rows for sim");
  if (!uopKernelIsNull(k)) {
    static float cache[128] __attribute__((aligned(16))), out[15] __attribute__((aligned(16)));
    for (int i = 0; i < 128; ++i)
      cache[i] = (float)i;
    int64_t ns[] = {3, 15};
    for (int t = 0; t < 2; ++t) {
      memset(out, 0, sizeof out);
      void *buffers[] = {out, cache};
      uint64_t sizes[] = {sizeof out, sizeof cache};
      EXPECT(mlirLogicalResultIsSuccess(uopKernelRun(k, 2, buffers, sizes, 1, &ns[t], NULL)),
             "run kv_rows");
      int equal = 0;
      for (int i = 0; i < 15; ++i) {
        float want = 0;
        for (int j = 0; i < ns[t] && j < 8; ++j)
          want += 2 * cache[i * 8 + j];
        equal += out[i] == want;
      }
      printf("symbolic sim: n = %lld: %d of 15 equal\n", (long long)ns[t], equal);
      EXPECT(equal == 15, "kv_rows on sim");
    }
    uopKernelDestroy(k);
  }
  uopRunnerDestroy(runner);
  mlirModuleDestroy(module);
  free(json);
}

/* A tensor graph, out = (a + b) * 2 on 4 floats: kernelized (uop-kernelize,
 * uop-plan-buffers), its schedule described, run on the CPU on caller-owned
 * buffers, its result read back, and exported as tinygrad's schedule. */
static void graph(MlirContext ctx) {
  const char *json =
      "{\"case\": \"scaled_sum\", \"graph\": ["
      "[\"UNIQUE\", \"void\", 0, []], [\"DEVICE\", \"void\", \"CPU\", []],"
      "[\"BUFFER\", \"f32\", {\"num\": 0, \"size\": 4}, [0, 1]],"
      "[\"UNIQUE\", \"void\", 1, []], [\"BUFFER\", \"f32\", {\"num\": 1, \"size\": 4}, [3, 1]],"
      "[\"ADD\", \"f32\", null, [2, 4]],"
      "[\"VIEW\", \"void\", {\"views\": [{\"shape\": [], \"strides\": [], \"offset\": 0, "
      "\"mask\": null, \"contiguous\": true}]}, [1]],"
      "[\"CONST\", \"f32\", 2.0, [6]], [\"RESHAPE\", \"f32\", [1], [7]],"
      "[\"EXPAND\", \"f32\", [4], [8]], [\"MUL\", \"f32\", null, [5, 9]],"
      "[\"SINK\", \"void\", null, [10]]]}";
  MlirStringRef name = mlirStringRefCreateFromCString("scaled_sum");
  MlirModule module = mlirModuleCreateEmpty(mlirLocationUnknownGet(ctx));
  EXPECT(mlirLogicalResultIsSuccess(
             uopImportTinygradGraph(module, mlirStringRefCreateFromCString(json),
                                    mlirStringRefCreateFromCString("graph.json"), name)),
         "import the graph");
  EXPECT(mlirLogicalResultIsSuccess(uopRunPassPipeline(
             module,
             mlirStringRefCreateFromCString("builtin.module(uop-kernelize,uop-plan-buffers)"))),
         "kernelize");
  printf("graph schedule: ");
  EXPECT(mlirLogicalResultIsSuccess(uopScheduleDescribe(module, name, printString, stdout)),
         "describe");
  printf("\n");
  /* arguments in buffer order: a (0), b (1), the result (2) */
  float a[4] = {1, 2, 3, 4}, b[4] = {10, 20, 30, 40}, out[4] = {0}, result[4] = {0};
  void *buffers[3] = {a, b, out};
  uint64_t sizes[3] = {sizeof a, sizeof b, sizeof out};
  UopRunner runner = uopRunnerCreate(ctx, mlirStringRefCreateFromCString("cpu"),
                                     mlirStringRefCreateFromCString(""));
  EXPECT(mlirLogicalResultIsSuccess(uopScheduleRun(runner, module, name, 3, buffers, sizes)),
         "run the schedule");
  EXPECT(mlirLogicalResultIsSuccess(
             uopScheduleReadOutput(module, name, 0, 3, buffers, sizes, result, sizeof result)),
         "read the result");
  printf("graph on cpu: %g %g %g %g\n", result[0], result[1], result[2], result[3]);
  EXPECT(result[0] == 22 && result[1] == 44 && result[2] == 66 && result[3] == 88, "graph result");
  EXPECT(mlirLogicalResultIsFailure(uopScheduleRun(runner, module, name, 2, buffers, sizes)),
         "too few buffers refused");
  printf("graph exported: ");
  EXPECT(mlirLogicalResultIsSuccess(uopExportTinygradSchedule(module, name, printString, stdout)),
         "export the schedule");
  uopRunnerDestroy(runner);
  mlirModuleDestroy(module);
}

int main(int argc, char **argv) {
  if (argc != 6) {
    fprintf(stderr, "usage: %s KERNEL.json A.bin B.bin EXPECTED.bin KV_ROWS.json\n", argv[0]);
    return 2;
  }
  MlirStringRef version = uopGetVersion();
  printf("uop-mlir %.*s\n", (int)version.length, version.data);

  MlirContext ctx = uopContextCreate();
  mlirContextAttachDiagnosticHandler(ctx, onDiagnostic, NULL, NULL);
  uopRegisterAllPasses();
  MlirDialect uop = mlirDialectHandleLoadDialect(mlirGetDialectHandle__uop__(), ctx);
  MlirStringRef ns = mlirDialectGetNamespace(uop);
  printf("dialect: %.*s\n", (int)ns.length, ns.data);

  size_t jsonSize, aSize, bSize, expectedSize;
  char *json = readFile(argv[1], &jsonSize);
  float *a = (float *)readFile(argv[2], &aSize);
  float *b = (float *)readFile(argv[3], &bSize);
  float *expected = (float *)readFile(argv[4], &expectedSize);
  if (aSize != N * 4 || bSize != N * 4 || expectedSize != N * 4) {
    printf("error: the buffers must hold %d floats\n", N);
    return 2;
  }

  MlirModule module = mlirModuleCreateEmpty(mlirLocationUnknownGet(ctx));
  EXPECT(mlirLogicalResultIsSuccess(uopImportTinygradKernel(
             module, (MlirStringRef){json, jsonSize}, mlirStringRefCreateFromCString(argv[1]),
             mlirStringRefCreateFromCString("kernel"))),
         "import");
  EXPECT(mlirOperationVerify(mlirModuleGetOperation(module)), "verify");
  printf("imported:\n");
  mlirOperationPrint(mlirModuleGetOperation(module), printString, stdout);
  printf("\n");

  run(ctx, module, "cpu", a, b, expected);
  run(ctx, module, "sim", a, b, expected);

  /* PTX, with launch dims */
  MlirModule ptxModule = cloneModule(module);
  UopPTXKernels ptx = uopCompileToPTX(ptxModule, mlirStringRefCreateFromCString("chip=sm_80"));
  EXPECT(!uopPTXKernelsIsNull(ptx), "compile to PTX");
  if (!uopPTXKernelsIsNull(ptx)) {
    for (intptr_t i = 0; i < uopPTXKernelsGetNum(ptx); ++i) {
      MlirStringRef name = uopPTXKernelsGetName(ptx, i), chip = uopPTXKernelsGetChip(ptx, i);
      MlirStringRef text = uopPTXKernelsGetPTX(ptx, i);
      int32_t grid[3], block[3];
      uopPTXKernelsGetLaunchDims(ptx, i, grid, block);
      printf("ptx: %.*s for %.*s, grid %dx%dx%d, block %dx%dx%d, %s\n", (int)name.length, name.data,
             (int)chip.length, chip.data, grid[0], grid[1], grid[2], block[0], block[1], block[2],
             strstr(text.data, ".visible .entry add_k0(") ? "has its .entry" : "NO .entry");
    }
  }

  /* a compiler built once compiles module after module, the PTX
     uopCompileToPTX gives */
  UopPTXCompiler compiler = uopPTXCompilerCreate(ctx, mlirStringRefCreateFromCString("chip=sm_80"));
  EXPECT(!uopPTXCompilerIsNull(compiler), "PTX compiler");
  for (int round = 0; round < 2 && !uopPTXCompilerIsNull(compiler); ++round) {
    MlirModule again = cloneModule(module);
    UopPTXKernels same = uopPTXCompilerCompile(compiler, again);
    EXPECT(!uopPTXKernelsIsNull(same) && uopPTXKernelsGetNum(same) == 1, "compiler's PTX");
    if (!uopPTXKernelsIsNull(same) && !uopPTXKernelsIsNull(ptx)) {
      MlirStringRef x = uopPTXKernelsGetPTX(ptx, 0), y = uopPTXKernelsGetPTX(same, 0);
      printf("ptx compiler, module %d: %s\n", round + 1,
             x.length == y.length && !memcmp(x.data, y.data, x.length) ? "the same PTX"
                                                                       : "DIFFERENT PTX");
    }
    if (!uopPTXKernelsIsNull(same))
      uopPTXKernelsDestroy(same);
    mlirModuleDestroy(again);
  }
  MlirContext other = uopContextCreate();
  MlirModule foreign = mlirModuleCreateEmpty(mlirLocationUnknownGet(other));
  if (!uopPTXCompilerIsNull(compiler))
    EXPECT(uopPTXKernelsIsNull(uopPTXCompilerCompile(compiler, foreign)),
           "a module of another context refused");
  mlirModuleDestroy(foreign);
  mlirContextDestroy(other);
  uopPTXCompilerDestroy(compiler);
  if (!uopPTXKernelsIsNull(ptx))
    uopPTXKernelsDestroy(ptx);
  mlirModuleDestroy(ptxModule);

  /* host code */
  MlirModule hostModule = cloneModule(module);
  printf("host LLVM IR:\n");
  EXPECT(mlirLogicalResultIsSuccess(uopCompileToHostLLVMIR(
             hostModule, mlirStringRefCreateFromCString(""), printString, stdout)),
         "host code");
  mlirModuleDestroy(hostModule);

  /* a pipeline by its textual form */
  MlirModule piped = cloneModule(module);
  EXPECT(mlirLogicalResultIsSuccess(uopRunPassPipeline(
             piped, mlirStringRefCreateFromCString(
                        "builtin.module(uop.kernel(uop-optimize{opts=UPCAST:0:4},uop-lower))"))),
         "pipeline");
  printf("after the pipeline:\n");
  mlirOperationPrint(mlirModuleGetOperation(piped), printString, stdout);
  printf("\n");
  mlirModuleDestroy(piped);

  /* bad input: each a diagnostic and a failure, never an abort */
  printf("errors:\n");
  MlirModule empty = mlirModuleCreateEmpty(mlirLocationUnknownGet(ctx));
  EXPECT(
      mlirLogicalResultIsFailure(uopImportTinygradKernel(
          empty, mlirStringRefCreateFromCString("{\"nodes\": [[\"SINK\", \"void\", null, [7]]]}"),
          mlirStringRefCreateFromCString("bad.json"), mlirStringRefCreateFromCString("bad"))),
      "bad JSON refused");
  EXPECT(mlirLogicalResultIsFailure(uopRunPassPipeline(
             empty, mlirStringRefCreateFromCString("builtin.module(no-such-pass)"))),
         "bad pipeline refused");
  EXPECT(uopPTXKernelsIsNull(uopCompileToPTX(empty, mlirStringRefCreateFromCString("chip=sm_1"))),
         "bad chip refused");
  EXPECT(uopPTXKernelsIsNull(uopCompileToPTX(empty, mlirStringRefCreateFromCString("colour=red"))),
         "bad option refused");
  EXPECT(uopPTXCompilerIsNull(uopPTXCompilerCreate(ctx, mlirStringRefCreateFromCString("O=7 x"))),
         "bad compiler option refused");
  EXPECT(uopRunnerIsNull(uopRunnerCreate(ctx, mlirStringRefCreateFromCString("tpu"),
                                         mlirStringRefCreateFromCString(""))),
         "bad target refused");
  mlirModuleDestroy(empty);

  symbolic(ctx, argv[5]);
  graph(ctx);

  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  free(json);
  free(a);
  free(b);
  free(expected);
  printf("%s\n", failures ? "FAILED" : "OK");
  return failures ? 1 : 0;
}
