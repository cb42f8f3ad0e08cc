//===- Schedule.cpp - tinygrad's create_schedule_with_vars ----------------===//

#include "uop/Kernelize/Kernelize.h"

#include "llvm/ADT/MapVector.h"
#include <deque>

using namespace mlir::uop;
using namespace mlir::uop::kernelize;

std::optional<std::vector<ScheduleItem>> kernelize::createSchedule(const Node *kernelSink,
                                                                   std::string &error) {
  // The KERNEL graph: a kernel waits for the kernels whose ASSIGNs it reads.
  llvm::MapVector<const Node *, int64_t> inDegree;
  llvm::DenseMap<const Node *, NodeList> children;
  for (const Node *u : kernelSink->toposort()) {
    if (u->op != Op::ASSIGN)
      continue;
    const Node *k = u->src[1];
    inDegree.insert({k, 0});
    for (const Node *s : k->src) {
      if (s->op == Op::ASSIGN) {
        children[s->src[1]].push_back(k);
        ++inDegree[k];
      } else if (s->op != Op::BUFFER) {
        error = ("input to a kernel must be ASSIGN or BUFFER, not " + opName(s->op)).str();
        return std::nullopt;
      }
    }
  }
  std::deque<const Node *> queue;
  for (auto [k, d] : inDegree)
    if (d == 0)
      queue.push_back(k);
  std::vector<ScheduleItem> schedule;
  while (!queue.empty()) {
    const Node *k = queue.front();
    queue.pop_front();
    ScheduleItem item{k->as<KernelArg>().ast, {}};
    for (const Node *s : k->src)
      item.bufs.push_back(s->bufUop());
    schedule.push_back(std::move(item));
    for (const Node *x : children[k])
      if (--inDegree[x] == 0)
        queue.push_back(x);
  }
  return schedule;
}
