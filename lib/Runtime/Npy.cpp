//===- Npy.cpp - numpy's .npy files for kernel buffers --------------------===//
//
// The format (numpy.lib.format): "\x93NUMPY", major and minor version bytes,
// the header's length (2 bytes in 1.0, 4 in 2.0 and 3.0), then a Python dict
// literal {'descr': '<f4', 'fortran_order': False, 'shape': (4, 8), }
// padded with spaces to a multiple of 64, then the data.
//
//===----------------------------------------------------------------------===//

#include "uop/Runtime/Npy.h"

#include "uop/Runtime/HostBuffers.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::uop;

std::string mlir::uop::npyDescr(Type dtype) {
  if (dtype.isInteger(1))
    return "|b1";
  if (dtype.isBF16())
    return "<u2"; // numpy has no bfloat16: the bits
  std::string size = std::to_string(elementBytes(dtype));
  char kind = isa<FloatType>(dtype) ? 'f' : cast<IntegerType>(dtype).isUnsigned() ? 'u' : 'i';
  return std::string(elementBytes(dtype) == 1 ? "|" : "<") + kind + size;
}

static llvm::Error npyError(const Twine &message) {
  return llvm::createStringError("not a .npy file this buffer can take: " + message);
}

/// The value of `key` in the header dict: the text up to the next top-level
/// ',' or '}', parentheses and quotes kept together.
static std::optional<StringRef> headerValue(StringRef header, StringRef key) {
  size_t at = header.find(("'" + key + "'").str());
  if (at == StringRef::npos)
    return std::nullopt;
  StringRef rest = header.drop_front(at + key.size() + 2).ltrim();
  if (!rest.consume_front(":"))
    return std::nullopt;
  rest = rest.ltrim();
  int depth = 0;
  char quote = 0;
  for (size_t i = 0; i < rest.size(); ++i) {
    char c = rest[i];
    if (quote) {
      quote = c == quote ? 0 : quote;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '(') {
      ++depth;
    } else if (c == ')') {
      --depth;
    } else if ((c == ',' || c == '}') && depth == 0) {
      return rest.take_front(i).trim();
    }
  }
  return std::nullopt;
}

llvm::Expected<std::vector<uint8_t>> mlir::uop::parseNpy(StringRef data, Type dtype,
                                                         int64_t elements) {
  if (!data.consume_front("\x93NUMPY") || data.size() < 2)
    return npyError("no \\x93NUMPY magic");
  unsigned major = static_cast<uint8_t>(data[0]);
  data = data.drop_front(2);
  size_t lengthBytes = major == 1 ? 2 : 4;
  if (major < 1 || major > 3 || data.size() < lengthBytes)
    return npyError("version " + Twine(major) + " (1 to 3 are read)");
  uint64_t headerBytes = 0;
  for (size_t i = 0; i < lengthBytes; ++i)
    headerBytes |= uint64_t(static_cast<uint8_t>(data[i])) << (8 * i);
  data = data.drop_front(lengthBytes);
  if (headerBytes > data.size())
    return npyError("its header runs past the end of the file");
  StringRef header = data.take_front(headerBytes);
  data = data.drop_front(headerBytes);

  std::optional<StringRef> descr = headerValue(header, "descr");
  std::optional<StringRef> fortran = headerValue(header, "fortran_order");
  std::optional<StringRef> shape = headerValue(header, "shape");
  if (!descr || !fortran || !shape)
    return npyError("its header lacks 'descr', 'fortran_order' or 'shape'");
  std::string want = npyDescr(dtype);
  StringRef got = descr->trim("'\"");
  // One-byte types have no byte order: '|u1', '<u1' and '=u1' are the same.
  bool sameType = got == want || (got.size() == want.size() && want[0] == '|' &&
                                  got.drop_front() == StringRef(want).drop_front());
  if (!sameType)
    return npyError("its dtype is " + got + ", the buffer's is " + want);
  int64_t count = 1;
  int dims = 0;
  for (StringRef dim : llvm::split(shape->trim("() "), ',')) {
    dim = dim.trim();
    if (dim.empty())
      continue;
    int64_t n;
    if (dim.getAsInteger(10, n) || n < 0 || llvm::MulOverflow(count, n, count))
      return npyError("its shape " + *shape + " is not a list of sizes");
    ++dims;
  }
  if (*fortran != "False" && dims > 1)
    return npyError("it is in Fortran order");
  if (count != elements)
    return npyError("it has " + Twine(count) + " elements, the buffer " + Twine(elements));
  uint64_t bytes = uint64_t(count) * elementBytes(dtype);
  if (data.size() != bytes)
    return npyError("it has " + Twine(data.size()) + " bytes of data, its shape says " +
                    Twine(bytes));
  return std::vector<uint8_t>(data.bytes_begin(), data.bytes_end());
}

std::string mlir::uop::makeNpy(Type dtype, ArrayRef<uint8_t> bytes) {
  int64_t count = static_cast<int64_t>(bytes.size()) / elementBytes(dtype);
  std::string header = "{'descr': '" + npyDescr(dtype) + "', 'fortran_order': False, 'shape': (" +
                       std::to_string(count) + ",), }";
  // magic (6) + version (2) + length (2) + header + '\n', a multiple of 64.
  size_t total = llvm::alignTo(10 + header.size() + 1, 64);
  header.append(total - 10 - header.size() - 1, ' ');
  header += '\n';
  std::string out = "\x93NUMPY\x01";
  out += '\0';
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  out += header;
  out.append(reinterpret_cast<const char *>(bytes.data()), bytes.size());
  return out;
}
