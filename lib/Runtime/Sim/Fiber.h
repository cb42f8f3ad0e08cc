//===- Fiber.h - the simulator's stack switch -------------------*- C++ -*-===//
//
// A simulated thread that must wait for others (a barrier, mma.sync, an
// mbarrier) parks on its own stack and the block's scheduler resumes
// another. On x86-64 the switch saves the callee-saved registers and the
// floating-point control words and swaps stack pointers; glibc's
// swapcontext also saves the signal mask, a system call per switch, which
// was half of the simulator's time on mma.sync kernels. Elsewhere
// swapcontext does the switch. Under AddressSanitizer the switches are
// announced to it (__sanitizer_start_switch_fiber).
//
//===----------------------------------------------------------------------===//
#ifndef UOP_RUNTIME_SIM_FIBER_H
#define UOP_RUNTIME_SIM_FIBER_H

#include <cstddef>

#if !defined(__x86_64__)
#include <ucontext.h>
#endif

namespace mlir::uop::sim {

/// A stack that can be switched to: a simulated thread's, or the
/// scheduler's (the OS thread's own stack, which needs no preparing).
struct Fiber {
#if defined(__x86_64__)
  void *sp = nullptr; // while switched out: where its registers are saved
#else
  ucontext_t context;
  void (*entry)() = nullptr;
#endif
  // For AddressSanitizer: the stack's extent (the scheduler's is learned
  // on the first switch away from it) and its fake stack while switched out.
  const void *stackBottom = nullptr;
  size_t stackSize = 0;
  void *fakeStack = nullptr;
};

/// Makes `fiber` run `entry` on [stack, stack + size) from its start when
/// it is next switched to. `entry` must not return: it ends by switching
/// away with `exiting`.
void prepareFiber(Fiber &fiber, void *stack, size_t size, void (*entry)());

/// Switches from `from`, the running fiber, to `to`; returns when a switch
/// to `from` resumes it. `exiting`: `from` will not be resumed (until
/// prepared again).
void switchFiber(Fiber &from, Fiber &to, bool exiting = false);

} // namespace mlir::uop::sim

#endif
