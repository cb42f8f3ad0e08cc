//===- ReplayMain.cpp - run a fuzz target on files, without libFuzzer -----===//
//
// The targets built without -fsanitize=fuzzer: `uop-json-fuzzer FILE|DIR...`
// runs LLVMFuzzerTestOneInput once per file (a directory's files in name
// order), so the findings kept in test/Fuzz replay in every build.
//
//===----------------------------------------------------------------------===//

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv) {
  llvm::SmallVector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    if (!llvm::sys::fs::is_directory(argv[i])) {
      files.push_back(argv[i]);
      continue;
    }
    std::error_code ec;
    llvm::SmallVector<std::string> inDir;
    for (llvm::sys::fs::directory_iterator it(argv[i], ec), end; it != end && !ec;
         it.increment(ec))
      if (!llvm::sys::fs::is_directory(it->path()))
        inDir.push_back(it->path());
    llvm::sort(inDir);
    files.append(inDir);
  }
  if (files.empty()) {
    llvm::errs() << "usage: " << argv[0] << " FILE|DIR...  (built without libFuzzer: replays "
                 << "inputs; scripts/fuzz.sh builds the fuzzing version)\n";
    return 2;
  }
  for (const std::string &path : files) {
    auto buf = llvm::MemoryBuffer::getFile(path);
    if (!buf) {
      llvm::errs() << path << ": error: " << buf.getError().message() << "\n";
      return 2;
    }
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>((*buf)->getBufferStart()),
                           (*buf)->getBufferSize());
  }
  llvm::outs() << "replayed " << files.size() << " inputs\n";
  return 0;
}
