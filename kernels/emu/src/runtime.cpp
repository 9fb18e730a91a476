// The emulator's scheduler: a launch runs its blocks on a few OS threads (the calling thread
// and a pool of helpers; a grid's blocks are independent, and our kernels share nothing
// across blocks), each thread one block at a time, each block's threads as fibers. A fiber runs until it reaches a barrier (or ends);
// when every fiber waits, a warp whose live lanes all wait at a warp barrier is released, else
// the block's barrier is released when every live thread waits there. Anything else (threads
// of one block or warp waiting at different barriers) is a divergent barrier: the launch
// stops and reports the block. On x86-64 fibers switch with a few instructions (emu_switch:
// callee-saved registers and the FP control words); elsewhere with ucontext, which also
// saves the signal mask (a system call per switch, so several times slower).
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <algorithm>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include "emu.h"

thread_local uint3 threadIdx;
thread_local uint3 blockIdx;
thread_local dim3 blockDim;
thread_local dim3 gridDim;

#if defined(__x86_64__)
// Saves the callee-saved registers and FP control words on the current stack, stores the
// stack pointer in *save, and resumes the stack at `load` (saved the same way, or made by
// fresh_stack).
extern "C" void emu_switch(void** save, void* load);
asm(R"(
    .pushsection .text
    .globl emu_switch
    .type emu_switch, @function
emu_switch:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    subq $16, %rsp
    stmxcsr 8(%rsp)
    fnstcw (%rsp)
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    fldcw (%rsp)
    ldmxcsr 8(%rsp)
    addq $16, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .size emu_switch, .-emu_switch
    .popsection
)");

#endif

namespace {

constexpr size_t STACK_BYTES = 256 * 1024;
constexpr unsigned MAX_THREADS = 1024;
// Dynamic shared memory starts as this pattern (a NaN as f32, a huge index as i32), so a read
// before any write shows; past the requested size it must still hold it when the block ends.
constexpr uint32_t POISON = 0x7fa5a5a5u;

// A fiber waits at a block barrier, a warp barrier (__syncwarp) or a shuffle's exchange;
// a warp's lanes split between the last two never complete either.
enum class State { Runnable, AtBlockBarrier, AtWarpBarrier, AtShuffle, Done };

#if defined(__x86_64__)
struct Context {
    void* sp = nullptr;
};
#else
struct Context {
    ucontext_t uc;
};
#endif

struct Fiber {
    Context context;
    State state;
};

// A fiber's stack, with an inaccessible page below it: an overflow faults instead of
// overwriting the heap.
class Stack {
  public:
    Stack() {
        guard_ = (size_t)sysconf(_SC_PAGESIZE);
        void* p = mmap(nullptr, guard_ + STACK_BYTES, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED || mprotect(p, guard_, PROT_NONE) != 0) std::abort();
        base_ = static_cast<char*>(p);
    }
    Stack(Stack&& other) noexcept : base_(other.base_), guard_(other.guard_) {
        other.base_ = nullptr;
    }
    Stack(const Stack&) = delete;
    Stack& operator=(const Stack&) = delete;
    Stack& operator=(Stack&&) = delete;
    ~Stack() {
        if (base_ != nullptr) munmap(base_, guard_ + STACK_BYTES);
    }
    char* bottom() const { return base_ + guard_; }

  private:
    char* base_ = nullptr;
    size_t guard_ = 0;
};

// Stacks kept for the next launch on this thread: mapping and unmapping one per thread of
// every launch would cost more than running most kernels.
thread_local std::vector<Stack> stack_pool;

struct Block {
    std::vector<Fiber> fibers;
    std::vector<char*> stacks;  // bottoms, one per fiber
    std::vector<void*> poisoned;  // static shared variables poisoned in this block
    std::vector<uint64_t> exchange;
    Context scheduler;
    unsigned current = 0;
    void (*body)(void*) = nullptr;
    void* ctx = nullptr;
};

thread_local Block* active = nullptr;
alignas(16) thread_local float smem[EMU_DYNAMIC_SHARED_BYTES / sizeof(float)];

void switch_to(Context& save, Context& load) {
#if defined(__x86_64__)
    emu_switch(&save.sp, load.sp);
#else
    swapcontext(&save.uc, &load.uc);
#endif
}

void fiber_main() {
    Block* block = active;
    block->body(block->ctx);
    Fiber& me = block->fibers[block->current];
    me.state = State::Done;
    switch_to(me.context, block->scheduler);  // never resumed
    std::abort();
}

// A fiber that starts in fiber_main on `stack`.
void start_fiber(Fiber& fiber, char* stack, Context& scheduler) {
#if defined(__x86_64__)
    (void)scheduler;
    // What emu_switch pops, from the stack pointer up: the x87 control word and MXCSR (their
    // defaults), six callee-saved registers, then the return address fiber_main, above which
    // the stack stands as after a call (8 mod 16).
    uint64_t* top = reinterpret_cast<uint64_t*>(
        (reinterpret_cast<uintptr_t>(stack) + STACK_BYTES) & ~uintptr_t(15));
    uint64_t* sp = top - 10;
    sp[0] = 0x037f;
    sp[1] = 0x1f80;
    for (int r = 2; r < 8; ++r) sp[r] = 0;
    sp[8] = reinterpret_cast<uint64_t>(&fiber_main);
    sp[9] = 0;
    fiber.context.sp = sp;
#else
    getcontext(&fiber.context.uc);
    fiber.context.uc.uc_stack.ss_sp = stack;
    fiber.context.uc.uc_stack.ss_size = STACK_BYTES;
    fiber.context.uc.uc_link = &scheduler.uc;
    makecontext(&fiber.context.uc, fiber_main, 0);
#endif
}

void wait_at(State state) {
    Block* block = active;
    Fiber& me = block->fibers[block->current];
    me.state = state;
    switch_to(me.context, block->scheduler);
}

void set_thread_index(unsigned tid) {
    threadIdx.x = tid % blockDim.x;
    threadIdx.y = (tid / blockDim.x) % blockDim.y;
    threadIdx.z = tid / (blockDim.x * blockDim.y);
}

// Releases the barriers every live thread they concern has reached; false when none is.
bool release(Block& block) {
    const unsigned n = (unsigned)block.fibers.size();
    bool released = false;
    for (unsigned lo = 0; lo < n; lo += 32) {
        const unsigned hi = lo + 32 < n ? lo + 32 : n;
        for (const State wait : {State::AtWarpBarrier, State::AtShuffle}) {
            bool all = true, any = false;
            for (unsigned t = lo; t < hi; ++t) {
                const State s = block.fibers[t].state;
                if (s == wait) any = true;
                else if (s != State::Done) all = false;
            }
            if (all && any) {
                for (unsigned t = lo; t < hi; ++t)
                    if (block.fibers[t].state == wait) block.fibers[t].state = State::Runnable;
                released = true;
            }
        }
    }
    if (released) return true;
    bool all = true, any = false;
    for (const Fiber& f : block.fibers) {
        if (f.state == State::AtBlockBarrier) any = true;
        else if (f.state != State::Done) all = false;
    }
    if (!(all && any)) return false;
    for (Fiber& f : block.fibers)
        if (f.state == State::AtBlockBarrier) f.state = State::Runnable;
    return true;
}

// Words past a block's dynamic shared memory that each block re-poisons and checks; the rest
// of the 48 KiB is poisoned once per launch and checked when the launch ends.
constexpr size_t SLACK_WORDS = 256;

size_t shared_words(size_t shared_bytes) { return (shared_bytes + 3) / 4; }

// 0: the block ran to its end; 2: divergent barrier; 3: wrote past its dynamic shared memory.
int run_block(Block& block, size_t shared_bytes, bool reverse) {
    uint32_t* words = reinterpret_cast<uint32_t*>(smem);
    const size_t capacity = EMU_DYNAMIC_SHARED_BYTES / 4;
    const size_t used = shared_words(shared_bytes);
    const size_t checked = std::min(capacity, used + SLACK_WORDS);
    for (size_t i = 0; i < checked; ++i) words[i] = POISON;
    for (uint64_t& slot : block.exchange) slot = 0;
    block.poisoned.clear();
    const unsigned n = (unsigned)block.fibers.size();
    for (unsigned t = 0; t < n; ++t) {
        start_fiber(block.fibers[t], block.stacks[t], block.scheduler);
        block.fibers[t].state = State::Runnable;
    }
    for (;;) {
        // Odd blocks resume their fibers in reverse order, so that a read that needs a
        // barrier before it shows in one order or the other.
        for (unsigned i = 0; i < n; ++i) {
            const unsigned t = reverse ? n - 1 - i : i;
            if (block.fibers[t].state != State::Runnable) continue;
            block.current = t;
            set_thread_index(t);
            switch_to(block.scheduler, block.fibers[t].context);
        }
        bool done = true;
        for (const Fiber& f : block.fibers) done = done && f.state == State::Done;
        if (done) break;
        if (!release(block)) return 2;
    }
    for (size_t i = used; i < checked; ++i)
        if (words[i] != POISON) return 3;
    return 0;
}

// Whether the shared memory past every block's slack still holds the poison the launch began
// with.
bool far_shared_untouched(size_t shared_bytes) {
    const uint32_t* words = reinterpret_cast<const uint32_t*>(smem);
    const size_t capacity = EMU_DYNAMIC_SHARED_BYTES / 4;
    for (size_t i = shared_words(shared_bytes) + SLACK_WORDS; i < capacity; ++i)
        if (words[i] != POISON) return false;
    return true;
}

// Helper threads for the blocks of a launch. One launch uses them at a time; a launch made
// while they are busy (from another host thread) runs on its caller alone. Never destroyed:
// a joinable std::thread destroyed at exit would end the process.
class Helpers {
  public:
    static Helpers& get() {
        static Helpers* helpers = new Helpers();
        return *helpers;
    }

    // Runs job(0) on the caller and job(1) .. job(n - 1) on helpers; returns once every one
    // has returned. False (nothing run) when another launch holds the helpers.
    bool try_run(unsigned n, const std::function<void(unsigned)>& job) {
        std::unique_lock<std::mutex> busy(busy_, std::try_to_lock);
        if (!busy.owns_lock()) return false;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            try {
                while (threads_.size() + 1 < n) {
                    const unsigned id = (unsigned)threads_.size() + 1;
                    threads_.emplace_back([this, id] { serve(id); });
                }
            } catch (const std::system_error&) {
                return false;  // no thread to be had (a process limit): the caller runs alone
            }
            job_ = &job;
            wanted_ = n;
            remaining_ = n - 1;
            ++generation_;
        }
        start_.notify_all();
        job(0);
        std::unique_lock<std::mutex> lock(mutex_);
        finished_.wait(lock, [this] { return remaining_ == 0; });
        job_ = nullptr;
        return true;
    }

    // Threads a launch may use: the machine's cores, at most 8.
    static unsigned width() {
        static const unsigned cores = std::thread::hardware_concurrency();
        return cores == 0 ? 1 : std::min(cores, 8u);
    }

  private:
    void serve(unsigned id) {
        uint64_t seen = 0;
        std::unique_lock<std::mutex> lock(mutex_);
        for (;;) {
            start_.wait(lock, [&] { return generation_ != seen; });
            seen = generation_;
            if (id >= wanted_) continue;
            const std::function<void(unsigned)>* job = job_;
            lock.unlock();
            (*job)(id);
            lock.lock();
            if (--remaining_ == 0) finished_.notify_all();
        }
    }

    std::mutex busy_;
    std::mutex mutex_;
    std::condition_variable start_;
    std::condition_variable finished_;
    std::vector<std::thread> threads_;
    const std::function<void(unsigned)>* job_ = nullptr;
    unsigned wanted_ = 0;
    unsigned remaining_ = 0;
    uint64_t generation_ = 0;
};

// What one thread of a launch found: 0 or run_block's code, and the block it names.
struct Outcome {
    int rc = 0;
    unsigned long long block = 0;
};

// Runs blocks `first`, `first + step`, ... of the grid on this thread, with its own fibers,
// stacks and shared memory.
Outcome run_blocks(dim3 grid, dim3 block_dim, size_t shared_bytes, void (*body)(void*), void* ctx,
                   unsigned long long first, unsigned long long step) {
    const unsigned long long threads = (unsigned long long)block_dim.x * block_dim.y * block_dim.z;
    Block block;
    block.fibers.resize(threads);
    block.exchange.assign(threads, 0);
    // A launch from inside a kernel (never done by ours) gets stacks of its own.
    std::vector<Stack> own;
    std::vector<Stack>& stacks = active == nullptr ? stack_pool : own;
    while (stacks.size() < threads) stacks.emplace_back();
    for (unsigned long long t = 0; t < threads; ++t) block.stacks.push_back(stacks[t].bottom());
    uint32_t* words = reinterpret_cast<uint32_t*>(smem);
    for (size_t i = 0; i < EMU_DYNAMIC_SHARED_BYTES / 4; ++i) words[i] = POISON;
    block.body = body;
    block.ctx = ctx;
    Block* outer = active;
    const dim3 outer_block_dim = blockDim, outer_grid = gridDim;
    const uint3 outer_index = blockIdx;
    active = &block;
    blockDim = block_dim;
    gridDim = grid;
    Outcome outcome;
    const unsigned long long total = (unsigned long long)grid.x * grid.y * grid.z;
    for (unsigned long long b = first; b < total && outcome.rc == 0; b += step) {
        const unsigned x = (unsigned)(b % grid.x);
        const unsigned y = (unsigned)(b / grid.x % grid.y);
        const unsigned z = (unsigned)(b / ((unsigned long long)grid.x * grid.y));
        blockIdx = uint3{x, y, z};
        outcome.rc = run_block(block, shared_bytes, (x + y + z) % 2 == 1);
        if (outcome.rc != 0) outcome.block = b;
    }
    active = outer;
    blockDim = outer_block_dim;
    gridDim = outer_grid;
    blockIdx = outer_index;
    if (outcome.rc == 0 && !far_shared_untouched(shared_bytes)) {
        outcome.rc = 3;  // some block wrote far past its shared memory; the last one is named
        outcome.block = total - 1;
    }
    return outcome;
}

}  // namespace

extern "C" float* emu_dynamic_shared() { return smem; }

extern "C" void emu_poison_shared(void* var, size_t bytes) {
    Block* block = active;
    if (std::find(block->poisoned.begin(), block->poisoned.end(), var) != block->poisoned.end())
        return;
    block->poisoned.push_back(var);
    unsigned char* p = static_cast<unsigned char*>(var);
    for (size_t i = 0; i < bytes; ++i) p[i] = (unsigned char)(POISON >> (8 * (i % 4)));
}

extern "C" void emu_sync_block() { wait_at(State::AtBlockBarrier); }
extern "C" void emu_sync_warp() { wait_at(State::AtWarpBarrier); }

extern "C" uint64_t emu_exchange(uint64_t bits, unsigned lane_mask) {
    Block* block = active;
    const unsigned me = block->current;  // the linear thread index: warps are its runs of 32
    block->exchange[me] = bits;
    wait_at(State::AtShuffle);
    const unsigned src = (me & ~31u) | ((me & 31u) ^ (lane_mask & 31u));
    const uint64_t got = src < block->exchange.size() ? block->exchange[src] : bits;
    wait_at(State::AtShuffle);  // nobody overwrites its slot before every lane has read
    return got;
}

// Runs `body(ctx)` as every thread of a grid. Returns 0, 1 for a launch CUDA would refuse
// (no threads or no blocks, over 1024 threads per block or 64 in z, over 65,535 blocks in y
// or z, over 48 KiB of dynamic shared memory), or run_block's code for the lowest failing
// block, named in `failed_block`.
extern "C" int emu_launch(unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                          unsigned bz, size_t shared_bytes, void (*body)(void*), void* ctx,
                          unsigned* failed_block) {
    const unsigned long long threads = (unsigned long long)bx * by * bz;
    if (threads == 0 || threads > MAX_THREADS || bz > 64 || gx == 0 || gy == 0 || gz == 0 ||
        gy > 65535 || gz > 65535 || shared_bytes > EMU_DYNAMIC_SHARED_BYTES)
        return 1;
    const dim3 grid{gx, gy, gz}, block_dim{bx, by, bz};
    const unsigned long long total = (unsigned long long)gx * gy * gz;
    // A launch from inside a kernel stays on its thread.
    const unsigned width =
        active != nullptr ? 1u : (unsigned)std::min<unsigned long long>(Helpers::width(), total);
    std::vector<Outcome> outcomes(width);
    const std::function<void(unsigned)> job = [&](unsigned w) {
        outcomes[w] = run_blocks(grid, block_dim, shared_bytes, body, ctx, w, width);
    };
    if (width == 1 || !Helpers::get().try_run(width, job)) {
        outcomes.assign(1, run_blocks(grid, block_dim, shared_bytes, body, ctx, 0, 1));
    }
    Outcome worst;
    for (const Outcome& o : outcomes)
        if (o.rc != 0 && (worst.rc == 0 || o.block < worst.block)) worst = o;
    if (worst.rc != 0) *failed_block = (unsigned)worst.block;
    return worst.rc;
}
