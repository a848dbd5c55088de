#!/usr/bin/env python3
"""Deterministic generator of realistic folded-stack (base, head) file pairs.

    bench/gen-pair.py --size-mb N [--seed S] --out-base F --out-head G
                      [--total-ratio R] [--stats]
    bench/gen-pair.py --self-check

Writes two files of `frame;frame;...;frame COUNT` lines, the base one about
N MB (10^6 bytes), the head one about as large, for bench/run and for anyone
who wants a large profile pair without real profiles.

Shape.  Eight processes (Java with JVM threads, C, C++, Rust, Go and two
kernel threads) each own a share of the lines.  Below each process sits a
call tree in which a node splits its lines among its callees by stick
breaking, so a few callees carry most of the samples; frame names come from
per-language vocabularies whose size grows with the file, so the same
function shows up in several places.  Leaves get the common leaf functions
(malloc, memcpy, runtime.mallocgc ...), kernel syscall and page-fault chains
(`_[k]`) and, for a few lines, recursion some hundreds of frames deep.
Counts are heavy-tailed (a discrete Pareto with alpha near 0.65).  Lines are
written in a pseudo-random order, different in base and head.

Differences.  Whole subtrees get slower or faster; functions are renamed,
removed with their callees, added, inlined away or wrapped by a new function
(head-only names carry a word, such as "simd", that base never uses, and
base-only names one, such as "legacy", that head never uses); single lines
get slower or faster, are removed or added, keep identical counts (30%), or
are sampled with noise on both sides, so that rare stacks come and go as they
do between two real recordings.

--self-check generates a 1 MB pair twice (in two processes) and once with
another seed, and checks that the runs agree, the seeds differ, the lines
are well formed and every class above shows up; it exits 1 on failure.

Determinism.  Everything comes from splitmix64 streams keyed by the seed and
a node's place in the tree, with integer arithmetic only (no `random`,
no floating-point library calls, no `hash()`), so a seed gives the same
bytes on any machine and any Python 3.8 or later.  Lines are computed one at a time
from their index, so memory stays bounded (a capped cache of tree nodes)
however large the files.  Only the Python 3 standard library is used.
"""

import argparse
import bisect
import os
import shutil
import subprocess
import sys
import tempfile
from math import isqrt

M64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def mix64(x):
    """splitmix64's output function: a well-spread 64-bit hash of an int."""
    x = (x + GOLDEN) & M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & M64
    return x ^ (x >> 31)


class Rng:
    """splitmix64 stream; the only source of randomness here."""

    __slots__ = ("state",)

    def __init__(self, seed):
        self.state = seed & M64

    def next(self):
        self.state = (self.state + GOLDEN) & M64
        x = self.state
        x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M64
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & M64
        return x ^ (x >> 31)

    def below(self, n):
        # The modulo bias is below 2^-40 for every n used here.
        return self.next() % n

    def between(self, lo, hi):
        return lo + self.next() % (hi - lo + 1)

    def permille(self, p):
        return self.next() % 1000 < p

    def pick(self, seq):
        return seq[self.next() % len(seq)]

    def skewed(self, seq):
        """An element biased to the front of seq (the smaller of two draws)."""
        return seq[min(self.next() % len(seq), self.next() % len(seq))]


class Perm:
    """A bijection of [0, n): a 4-round Feistel network with cycle walking.

    It gives each file its own line order without holding the lines.
    """

    def __init__(self, n, key):
        bits = max(2, (n - 1).bit_length())
        bits += bits & 1
        self.half = bits // 2
        self.mask = (1 << self.half) - 1
        self.n = n
        self.keys = [mix64(key + r) for r in range(4)]

    def __call__(self, x):
        half, mask, n = self.half, self.mask, self.n
        while True:
            left, right = x >> half, x & mask
            for k in self.keys:
                f = ((((right ^ k) * GOLDEN) & M64) >> 29) & mask
                left, right = right, left ^ f
            x = (left << half) | right
            if x < n:
                return x


# Words of the made-up vocabularies.  None of them is one of the marker words
# below, so a marked name is new (head only) or gone (base only) for sure.
VERBS = ("get set read write parse encode decode flush poll send recv open close alloc "
         "init reset update insert remove find lookup scan merge split sort hash compare "
         "copy move load store emit visit walk build apply resolve dispatch handle process "
         "schedule wait notify acquire release commit rollback validate render compile "
         "execute fetch push pop drain fill grow shrink evict probe mark sweep").split()
NOUNS = ("buffer header request response session socket stream frame packet page block "
         "chunk record entry node tree table index cache queue list map key value token "
         "symbol string bytes message event timer task worker lock channel connection "
         "client server handler context config state plan query row column tuple batch "
         "segment slice region range cursor iterator builder reader writer parser lexer "
         "encoder decoder codec schema field metric counter gauge span trace journal "
         "snapshot checkpoint manifest shard partition replica leader vote bucket arena "
         "bitmap filter heap pool route rule policy ticket order invoice account").split()
OLD_WORDS = ("legacy", "compat", "deprecated", "v1")
NEW_WORDS = ("fastpath", "batched", "simd", "v2")


def camel(word):
    return word[0].upper() + word[1:]


def words(h, *lists):
    """One word from each list, chosen by successive digits of h."""
    out = []
    for seq in lists:
        out.append(seq[h % len(seq)])
        h //= len(seq)
    return out


def marker(h, variant):
    if variant == "old":
        return OLD_WORDS[h % len(OLD_WORDS)]
    return NEW_WORDS[h % len(NEW_WORDS)]


C_PREFIXES = ("ngx_http", "ngx", "pg", "redis", "sqlite3", "ssl", "xml", "json", "zstd",
              "lz4", "ev", "uv", "curl", "http2", "dict", "heap", "btree", "wal", "lua",
              "av_codec")


def name_c(h, variant):
    pre, verb, noun, noun2 = words(h, C_PREFIXES, VERBS, NOUNS, NOUNS)
    name = "%s_%s_%s" % (pre, verb, noun) if h >> 50 & 1 else "%s_%s_%s_%s" % (
        pre, noun, noun2, verb)
    if variant:
        name += "_" + marker(h >> 40, variant)
    return name


CPP_NS = ("acme", "acme::net", "acme::storage", "acme::detail", "folly", "absl", "grpc_core",
          "rocksdb", "boost::asio::detail", "v8::internal", "Envoy::Http", "tbb::detail::r1")
CPP_ARGS = ("", "int", "unsigned long", "std::string const&", "Slice const&",
            "char const*, unsigned long", "std::unique_ptr<Request, std::default_delete<Request> >",
            "absl::string_view", "void*", "std::vector<int, std::allocator<int> > const&",
            "bool", "Status*")
CPP_TARGS = ("int", "std::string", "acme::Key", "unsigned long, 8ul", "char", "double",
             "std::pair<int const, acme::Value>", "void (*)(int)")


def name_cpp(h, variant):
    ns, verb, noun, noun2, args, targ = words(h, CPP_NS, VERBS, NOUNS, NOUNS, CPP_ARGS, CPP_TARGS)
    cls = camel(noun) + camel(noun2)
    meth = verb + camel(noun2)
    if variant:
        meth += camel(marker(h >> 40, variant))
    form = (h >> 44) % 10
    if form == 5:
        return "%s::%s<%s>::%s(%s)" % (ns, cls, targ, meth, args)
    if form == 6:
        return "%s::%s::%s(%s)::{lambda(%s)#%d}::operator()(%s) const" % (
            ns, cls, meth, args, targ, 1 + (h >> 56) % 3, targ)
    if form == 7:
        return "%s::%s%s::operator()(%s)" % (ns, cls, camel(meth), args)
    if form == 8:
        return ("std::_Function_handler<void (%s), %s::%s::%s(%s)::{lambda()#1}>"
                "::_M_invoke(std::_Any_data const&)" % (targ, ns, cls, meth, args))
    if form == 9:
        last = ns.split("::")[-1]
        return "_ZN%d%s%d%s%d%sEv" % (len(last), last, len(cls), cls, len(meth), meth)
    return "%s::%s::%s(%s)" % (ns, cls, meth, args)


RUST_CRATES = ("tokio", "hyper", "api_server", "serde_json", "regex_automata", "tracing_core",
               "h2", "bytes", "mio", "sqlx_core", "axum", "hashbrown", "tower", "prost")
RUST_TRAITS = (("core::future::future::Future", "poll"), ("core::ops::function::FnOnce<()>",
                                                          "call_once"),
               ("core::iter::traits::iterator::Iterator", "next"),
               ("serde::de::Deserialize", "deserialize"), ("core::clone::Clone", "clone"),
               ("core::fmt::Display", "fmt"), ("tower_service::Service<Request>", "call"))


def name_rust(h, variant):
    crate, mod, verb, noun, noun2, trait = words(h, RUST_CRATES, NOUNS, VERBS, NOUNS, NOUNS,
                                                 RUST_TRAITS)
    typ = camel(noun) + camel(noun2)
    fn = "%s_%s" % (verb, noun2)
    if variant:
        fn += "_" + marker(h >> 40, variant)
    path = "%s::%s" % (crate, mod)
    suffix = "::h%016x" % mix64(h) if h >> 45 & 1 else ""
    form = (h >> 46) % 8
    if form == 4:
        return "<%s::%s as %s>::%s%s" % (path, typ, trait[0], trait[1], suffix)
    if form == 5:
        return "%s::%s::{{closure}}%s" % (path, fn, suffix)
    if form == 6:
        return "core::ptr::drop_in_place<%s::%s>%s" % (path, typ, suffix)
    if form == 7:
        return "%s::%s<T,A>::%s%s" % (path, typ, fn, suffix)
    return "%s::%s::%s%s" % (path, typ, fn, suffix)


JAVA_PKGS = ("java/util", "java/util/concurrent", "java/io", "java/lang", "java/util/stream",
             "com/acme/billing", "com/acme/billing/service", "com/acme/orders/api",
             "org/springframework/web/servlet", "io/netty/channel",
             "com/fasterxml/jackson/databind", "org/apache/kafka/clients/consumer")
JAVA_KINDS = ("", "", "Impl", "Service", "Handler", "Factory", "Manager")


def name_java(h, variant):
    pkg, noun, noun2, kind, verb, noun3 = words(h, JAVA_PKGS, NOUNS, NOUNS, JAVA_KINDS, VERBS,
                                                NOUNS)
    cls = camel(noun) + camel(noun2) + kind
    meth = verb + camel(noun3)
    if variant:
        meth += camel(marker(h >> 40, variant))
    form = (h >> 44) % 10
    if form == 7:
        name = "%s/%s$$Lambda$%d/0x%016x.apply" % (pkg, cls, 1 + (h >> 48) % 900,
                                                   0x800000000 + (mix64(h) & 0xFFFFF8))
    elif form == 8:
        name = "%s/%s$%s.%s" % (pkg, cls, camel(noun3), meth)
    elif form == 9:
        name = "%s/%s.lambda$%s$%d" % (pkg, cls, meth, (h >> 52) % 12)
    else:
        name = "%s/%s.%s" % (pkg, cls, meth)
    # JIT-compiled frames carry the _[j] annotation of perf-map-agent.
    return name + "_[j]" if h >> 58 & 1 else name


GO_PKGS = ("net/http", "net", "encoding/json", "sync", "bufio",
           "github.com/acme/gateway/internal/proxy",
           "github.com/acme/gateway/internal/store", "google.golang.org/grpc",
           "google.golang.org/protobuf/proto", "github.com/jackc/pgx/v5",
           "go.uber.org/zap/zapcore", "github.com/acme/gateway/pkg/auth")


def name_go(h, variant):
    pkg, noun, noun2, verb, noun3 = words(h, GO_PKGS, NOUNS, NOUNS, VERBS, NOUNS)
    typ = camel(noun) + camel(noun2)
    meth = camel(verb) + camel(noun3)
    if variant:
        meth += camel(marker(h >> 40, variant))
    form = (h >> 44) % 10
    n = 1 + (h >> 50) % 6
    if form in (4, 5):
        return "%s.%s" % (pkg, meth if form == 4 else verb + camel(noun3))
    if form == 6:
        return "%s.(*%s).%s.func%d" % (pkg, typ, meth, n)
    if form == 7:
        return "%s.%s.func%d" % (pkg, verb + camel(noun3), n)
    if form == 8:
        return "%s.%s.%s" % (pkg, typ, meth)
    if form == 9:
        return "%s.%s[...]" % (pkg, meth)
    return "%s.(*%s).%s" % (pkg, typ, meth)


KERNEL_SUBS = ("tcp", "ip", "sock", "vfs", "ext4", "xfs", "blk_mq", "nvme", "mm", "page",
               "sched", "futex", "ep", "net_rx", "skb", "dev", "irq", "rcu", "kmem_cache")


def name_kernel(h, variant):
    sub, verb, noun = words(h, KERNEL_SUBS, VERBS, NOUNS)
    name = "%s_%s_%s" % (sub, verb, noun)
    if variant:
        name += "_" + marker(h >> 40, variant)
    return name + "_[k]"


# Leaf functions that real profiles end in over and over, per language.
COMMON = {
    "c": ("__memmove_avx_unaligned_erms", "malloc", "_int_malloc", "free", "_int_free",
          "__memset_avx2_unaligned_erms", "pthread_mutex_lock", "__strlen_avx2", "memcmp",
          "__libc_recv", "__libc_send", "epoll_wait"),
    "cpp": ("operator new(unsigned long)", "malloc", "__memmove_avx_unaligned_erms",
            "std::_Rb_tree_increment(std::_Rb_tree_node_base*)", "operator delete(void*)",
            "std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >"
            "::_M_mutate(unsigned long, unsigned long, char const*, unsigned long)",
            "tc_malloc", "__cxa_throw", "std::mutex::lock()"),
    "rust": ("__rust_alloc", "__rust_dealloc", "core::fmt::write",
             "alloc::raw_vec::RawVec<T,A>::grow_one", "__memcpy_avx_unaligned_erms",
             "core::ptr::drop_in_place<alloc::vec::Vec<u8>>",
             "<alloc::string::String as core::fmt::Write>::write_str",
             "hashbrown::raw::RawTable<T,A>::reserve_rehash",
             "std::sys::sync::mutex::futex::Mutex::lock_contended"),
    "java": ("java/util/HashMap.get", "java/util/HashMap.putVal", "java/util/ArrayList.add",
             "java/lang/String.hashCode", "java/util/concurrent/ConcurrentHashMap.get",
             "java/lang/StringBuilder.append", "java/util/Arrays.copyOf", "Interpreter",
             "SharedRuntime::resolve_virtual_call_C(JavaThread*)",
             "OptoRuntime::new_instance_C(Klass*, JavaThread*)"),
    "go": ("runtime.mallocgc", "runtime.memmove", "runtime.mapaccess2_faststr",
           "runtime.growslice",
           "runtime.newobject", "runtime.lock2", "runtime.selectgo", "runtime.chanrecv",
           "runtime.memclrNoHeapPointers", "runtime.futex", "runtime.scanobject"),
    "kernel": ("native_queued_spin_lock_slowpath_[k]", "_raw_spin_lock_[k]", "memset_orig_[k]",
               "copy_user_enhanced_fast_string_[k]", "__schedule_[k]", "clear_page_erms_[k]"),
}

# Ways into the kernel from user space; a line takes a prefix of one.
KERNEL_CHAINS = (
    ("entry_SYSCALL_64_after_hwframe", "do_syscall_64", "__x64_sys_write", "ksys_write",
     "vfs_write", "sock_write_iter", "sock_sendmsg", "tcp_sendmsg", "tcp_sendmsg_locked",
     "tcp_push", "__tcp_push_pending_frames", "tcp_write_xmit", "__tcp_transmit_skb",
     "ip_queue_xmit", "__ip_queue_xmit", "ip_finish_output2", "__dev_queue_xmit"),
    ("entry_SYSCALL_64_after_hwframe", "do_syscall_64", "__x64_sys_read", "ksys_read",
     "vfs_read", "ext4_file_read_iter", "filemap_read", "filemap_get_pages",
     "copy_page_to_iter", "_copy_to_iter", "copy_user_enhanced_fast_string"),
    ("entry_SYSCALL_64_after_hwframe", "do_syscall_64", "__x64_sys_futex", "do_futex",
     "futex_wait", "futex_wait_queue", "schedule", "__schedule", "finish_task_switch.isra.0"),
    ("entry_SYSCALL_64_after_hwframe", "do_syscall_64", "__x64_sys_epoll_wait",
     "do_epoll_wait", "ep_poll", "schedule_hrtimeout_range", "schedule", "__schedule"),
    ("asm_exc_page_fault", "exc_page_fault", "do_user_addr_fault", "handle_mm_fault",
     "__handle_mm_fault", "do_anonymous_page", "vma_alloc_folio", "__folio_alloc",
     "get_page_from_freelist", "clear_page_erms"),
    ("asm_sysvec_apic_timer_interrupt", "sysvec_apic_timer_interrupt",
     "__sysvec_apic_timer_interrupt", "hrtimer_interrupt", "__hrtimer_run_queues",
     "tick_sched_timer", "update_process_times", "scheduler_tick"),
)
KERNEL_CHAINS = tuple(tuple(f + "_[k]" for f in chain) for chain in KERNEL_CHAINS)

NAMERS = {"c": name_c, "cpp": name_cpp, "rust": name_rust, "java": name_java, "go": name_go,
          "kernel": name_kernel}

# (weight, language, the frames every stack of that process starts with)
PROCESSES = (
    (22, "java", ("java", "start_thread", "java_start(Thread*)", "JavaThread::run()",
                  "JavaThread::thread_main_inner()",
                  "JavaCalls::call_virtual(JavaValue*, Handle, Symbol*, Symbol*, Thread*)",
                  "JavaCalls::call_helper(JavaValue*, methodHandle const&, "
                  "JavaCallArguments*, Thread*)",
                  "call_stub", "java/lang/Thread.run",
                  "java/util/concurrent/ThreadPoolExecutor$Worker.run",
                  "java/util/concurrent/ThreadPoolExecutor.runWorker")),
    (4, "cpp", ("java", "start_thread", "java_start(Thread*)", "GCTaskThread::run()",
                "StealTask::do_it(GCTaskManager*, unsigned int)")),
    (14, "c", ("nginx", "_start", "__libc_start_main", "main", "ngx_master_process_cycle",
               "ngx_start_worker_processes", "ngx_spawn_process", "ngx_worker_process_cycle",
               "ngx_process_events_and_timers", "ngx_epoll_process_events")),
    (16, "cpp", ("trader", "start_thread",
                 "std::thread::_State_impl<std::thread::_Invoker<std::tuple<"
                 "acme::Reactor::start()::{lambda()#1}> > >::_M_run()",
                 "acme::Reactor::loop()",
                 "acme::EventLoop::runOnce(std::chrono::duration<long, std::ratio<1l, 1000l> >)")),
    (15, "rust", ("api-server", "clone3", "start_thread",
                  "std::sys::pal::unix::thread::Thread::new::thread_start",
                  "core::ops::function::FnOnce::call_once{{vtable.shim}}",
                  "std::sys::backtrace::__rust_begin_short_backtrace",
                  "tokio::runtime::scheduler::multi_thread::worker::run",
                  "tokio::runtime::scheduler::multi_thread::worker::Context::run_task")),
    (15, "go", ("gateway", "runtime.goexit.abi0")),
    (3, "go", ("gateway", "runtime.mcall", "runtime.park_m", "runtime.schedule",
               "runtime.findRunnable")),
    (6, "kernel", ("swapper", "secondary_startup_64_no_verify_[k]", "start_secondary_[k]",
                   "cpu_startup_entry_[k]", "do_idle_[k]")),
    (5, "kernel", ("kworker/u16:2-events_unbound", "ret_from_fork_asm_[k]", "ret_from_fork_[k]",
                   "kthread_[k]", "worker_thread_[k]", "process_one_work_[k]")),
)

# Node flags: how a subtree differs between base and head, in permille of nodes.
FLAG_ODDS = (("slower", 30), ("faster", 30), ("renamed", 6), ("gone", 4), ("added", 4),
             ("inlined", 5), ("wrapped", 5))

CACHE_CAP = 50000  # entries a cache keeps; past this it starts over (output is unaffected)


class Node:
    __slots__ = ("bseg", "hseg", "in_base", "in_head", "factor", "bounds", "names", "lang")


class Generator:
    """The two profiles of one seed and line count, computed line by line."""

    def __init__(self, seed, lines):
        self.seed = seed
        self.lines = lines
        self.root = mix64(seed ^ 0x5EED)
        # Vocabulary size: how many distinct names a language draws from.
        self.vocab = 300 + 3 * lines
        self.max_exp = min(21, lines.bit_length() + 2)
        self.deep_odds = 4 * isqrt(lines) + 1
        self.cache = {}
        self.name_cache = {}
        total = sum(p[0] for p in PROCESSES)
        self.proc_bounds = [0]
        acc = 0
        for weight, _, _ in PROCESSES:
            acc += weight
            self.proc_bounds.append(lines * acc // total)

    def name(self, lang, idx, variant=None):
        key = (lang, idx, variant)
        name = self.name_cache.get(key)
        if name is None:
            if len(self.name_cache) >= CACHE_CAP:
                self.name_cache.clear()
            name = NAMERS[lang](mix64(idx ^ self.root), variant)
            self.name_cache[key] = name
        return name

    def split(self, rng, lo, hi):
        """Child boundaries of [lo, hi): stick breaking, big callees first."""
        bounds = [lo]
        while lo < hi:
            rest = hi - lo
            take = max(1, rest * rng.between(150, 750) // 1000) if rest > 1 else 1
            lo += take
            bounds.append(lo)
        return bounds

    def node(self, key, lo, hi, lang, first, depth):
        """Everything about the inner node `key` covering lines [lo, hi)."""
        node = self.cache.get(key)
        if node is not None:
            return node
        if len(self.cache) >= CACHE_CAP:
            self.cache.clear()
        rng = Rng(key)
        node = Node()
        node.lang = lang
        node.bounds = self.split(rng, lo, hi)
        node.names = rng.next()  # the first child's name index; siblings count up
        if first is None:
            # A process: its fixed frames are the line's prefix already.
            node.in_base = node.in_head = True
            node.factor = 1000
            node.bseg = node.hseg = ""
        else:
            frames = [self.name(lang, first)]
            roll = rng.below(1000)
            extra = 0 if roll < 620 else 1 if roll < 840 else rng.between(2, 4)
            for _ in range(extra):
                frames.append(self.name(lang, rng.below(self.vocab)))
            self.flag(node, rng, lang, first, frames, depth)
        self.cache[key] = node
        return node

    def flag(self, node, rng, lang, first, frames, depth):
        node.in_base = node.in_head = True
        node.factor = 1000
        flag = None
        if depth >= 2:
            roll = rng.below(1000)
            for name, odds in FLAG_ODDS:
                if roll < odds:
                    flag = name
                    break
                roll -= odds
        base, head = list(frames), list(frames)
        if flag == "slower":
            node.factor = rng.between(1200, 2500)
        elif flag == "faster":
            node.factor = rng.between(400, 830)
        elif flag in ("renamed", "gone", "added", "inlined"):
            base[0] = self.name(lang, first, "old")
            head[0] = self.name(lang, first, "new")
            node.in_base = flag != "added"
            node.in_head = flag != "gone"
            if flag == "inlined":
                head = []
        elif flag == "wrapped":
            head.insert(0, self.name(lang, rng.below(self.vocab), "new"))
        node.bseg = ";".join(base)
        node.hseg = ";".join(head)

    def tail(self, rng, lang, first, frames):
        """The frames of one line below its last inner node."""
        if first is not None:
            frames.append(self.name(lang, first))
        if rng.below(self.deep_odds) == 0:
            # Recursion: a cycle of one to three functions, hundreds deep.
            # Few code paths recurse (parsers, tree walks), so deep stacks
            # grow in number like the square root of the profile, not with it.
            cycle = [self.name(lang, rng.below(self.vocab)) for _ in range(rng.between(1, 3))]
            depth = rng.between(100, 450)
            frames.extend(cycle[k % len(cycle)] for k in range(depth))
        if lang != "kernel" and rng.permille(300):
            frames.append(rng.skewed(COMMON[lang]))
        if rng.permille(130):
            chain = rng.pick(KERNEL_CHAINS)
            frames.extend(chain[:rng.between(3, len(chain))])
        elif lang == "kernel" and rng.permille(300):
            frames.append(rng.skewed(COMMON["kernel"]))

    def count(self, rng):
        """Discrete Pareto: P(count >= 2^e) = 0.64^e."""
        e = 0
        while e < self.max_exp and rng.permille(640):
            e += 1
        return (1 << e) + rng.below(1 << e)

    def line(self, i):
        """(base line or None, head line or None) of line index i."""
        p = bisect.bisect_right(self.proc_bounds, i) - 1
        _, lang, prefix = PROCESSES[p]
        base = [";".join(prefix)]
        head = list(base)
        lo, hi = self.proc_bounds[p], self.proc_bounds[p + 1]
        key = mix64(self.root + p)
        in_base = in_head = True
        factor = 1000
        first = None  # name index of this node's first frame; the process has its own
        depth = 0
        last = True
        while hi - lo > 1:
            node = self.node(key, lo, hi, lang, first, depth)
            if node.bseg:
                base.append(node.bseg)
            if node.hseg:
                head.append(node.hseg)
            in_base &= node.in_base
            in_head &= node.in_head
            factor = factor * node.factor // 1000
            j = bisect.bisect_right(node.bounds, i) - 1
            lo, hi = node.bounds[j], node.bounds[j + 1]
            last = j == len(node.bounds) - 2
            first = (node.names + j) % self.vocab
            key = mix64(key ^ (j + 1) * GOLDEN)
            depth += 1
        return self.leaf(key, lang, first, last, base, head, in_base, in_head, factor)

    def leaf(self, key, lang, first, last, base, head, in_base, in_head, factor):
        rng = Rng(key)
        # The last callee sometimes is the caller's own (self) time.
        if last and first is not None and rng.permille(150):
            first = None
        frames = []
        self.tail(rng, lang, first, frames)
        if frames:
            tail = ";".join(frames)
            base.append(tail)
            head.append(tail)
        roll = rng.below(1000)
        mass = self.count(rng)
        if roll < 300:
            # The same work in both: byte-identical counts (a deterministic
            # profiler such as callgrind gives these).
            count = mass
            head_count = max(1, (mass * factor + 500) // 1000)
        else:
            if roll < 320:
                in_head = False
            elif roll < 340:
                in_base = False
            elif roll < 380:
                factor = factor * rng.between(1300, 3000) // 1000
            elif roll < 420:
                factor = factor * rng.between(300, 800) // 1000
            # Sampling noise: rare stacks come and go between two profiles.
            count = sampled(rng, mass)
            head_count = sampled(rng, (mass * factor + 500) // 1000)
        return (("%s %d\n" % (";".join(base), count)) if in_base and count else None,
                ("%s %d\n" % (";".join(head), head_count)) if in_head and head_count else None)


def sampled(rng, mass):
    """A sampled count of true mass `mass`: mean mass, variance near mass.

    Binomial(4 mass, 1/4) for small masses (0 about a third of the time for
    mass 1), a bell of width sqrt(mass) around it for large ones.
    """
    if mass <= 16:
        hits = 0
        trials = 4 * mass
        while trials > 0:
            bits = rng.next()
            # 32 trials of probability 1/4: both bits of a pair set.
            both = bits & (bits >> 1) & 0x5555555555555555
            if trials < 32:
                both &= (1 << (2 * trials)) - 1
            hits += bin(both).count("1")
            trials -= 32
        return hits
    spread = bin(rng.next()).count("1") - 32
    return max(0, mass + spread * isqrt(mass) // 4)


class Stats:
    """Figures of one written file, for --stats (holds the set of frame names)."""

    def __init__(self):
        self.lines = self.bytes = self.samples = 0
        self.depths = {}
        self.counts = {}
        self.frames = set()

    def add(self, line):
        self.lines += 1
        self.bytes += len(line)
        stack, _, count = line.rstrip("\n").rpartition(" ")
        frames = stack.split(";")
        self.samples += int(count)
        self.depths[len(frames)] = self.depths.get(len(frames), 0) + 1
        self.counts[int(count)] = self.counts.get(int(count), 0) + 1
        self.frames.update(frames)

    @staticmethod
    def quantile(hist, q):
        want = (sum(hist.values()) * q + 99) // 100
        seen = 0
        for value in sorted(hist):
            seen += hist[value]
            if seen >= want:
                return value
        return 0

    def report(self, label):
        if not self.lines:
            return "%s: empty" % label
        return ("%s: %d lines, %d bytes, %d samples, %d unique frames, depth min/median/max "
                "%d/%d/%d, count median/p99/max %d/%d/%d" % (
                    label, self.lines, self.bytes, self.samples, len(self.frames),
                    min(self.depths), self.quantile(self.depths, 50), max(self.depths),
                    self.quantile(self.counts, 50), self.quantile(self.counts, 99),
                    max(self.counts)))


class Writer:
    """Buffered text output of one file."""

    def __init__(self, path, stats):
        self.file = open(path, "w", encoding="utf-8", newline="\n")
        self.parts = []
        self.bytes = 0
        self.stats = stats

    def write(self, line):
        self.parts.append(line)
        self.bytes += len(line)
        if self.stats is not None:
            self.stats.add(line)
        if len(self.parts) >= 2048:
            self.flush()

    def flush(self):
        self.file.write("".join(self.parts))
        self.parts = []

    def close(self):
        self.flush()
        self.file.close()


def plan_lines(seed, target):
    """How many line indices to plan for so that base reaches `target` bytes.

    Line length grows slowly with the tree, so two rounds of sampling do.
    """
    lines = max(16, target // 1000)
    for _ in range(2):
        gen = Generator(seed, lines)
        order = Perm(lines, gen.root ^ 1)
        samples = min(lines, 1000)
        total = 0
        for k in range(samples):
            base, _ = gen.line(order(k * lines // samples))
            if base is not None:
                total += len(base)
        lines = max(16, target * samples // max(1, total))
    # A margin, so that base reaches the target before the indices run out.
    return lines + lines // 8 + 16


def generate(size_mb, seed, out_base, out_head, total_ratio=1.0, stats=False):
    """Write the pair; return the Stats of (base, head) when asked."""
    target = int(size_mb * 1000000)
    gen = Generator(seed, plan_lines(seed, target))
    ratio = int(round(total_ratio * 1000))
    base_stats, head_stats = (Stats(), Stats()) if stats else (None, None)
    order = Perm(gen.lines, gen.root ^ 1)
    out = Writer(out_base, base_stats)
    used = 0
    while used < gen.lines and out.bytes < target:
        line, _ = gen.line(order(used))
        used += 1
        if line is not None:
            out.write(line)
    out.close()
    # Head: the same line indices, in another order.
    head_order = Perm(used, gen.root ^ 2)
    out = Writer(out_head, head_stats)
    for k in range(used):
        _, line = gen.line(order(head_order(k)))
        if line is None:
            continue
        if ratio != 1000:
            stack, _, count = line.rpartition(" ")
            line = "%s %d\n" % (stack, max(1, (int(count) * ratio + 500) // 1000))
        out.write(line)
    out.close()
    return base_stats, head_stats


def read_pair(base_path, head_path):
    """{stack: count} of each file, and whether every line was well formed."""
    ok = True
    sides = []
    for path in (base_path, head_path):
        counts = {}
        with open(path, encoding="utf-8") as f:
            for line in f:
                stack, sep, count = line.rstrip("\n").rpartition(" ")
                frames = stack.split(";")
                if not sep or not count.isdigit() or int(count) < 1 or "" in frames:
                    ok = False
                counts[stack] = counts.get(stack, 0) + int(count) if count.isdigit() else 0
        sides.append(counts)
    return sides[0], sides[1], ok


def classes(base, head):
    """Which difference classes a pair shows, as {name: how many}."""
    found = dict.fromkeys(("unchanged", "slower", "faster", "new path", "removed path",
                           "new function", "removed function"), 0)
    for stack, count in base.items():
        other = head.get(stack)
        if other is None:
            found["removed path"] += 1
        elif other == count:
            found["unchanged"] += 1
        else:
            found["slower" if other > count else "faster"] += 1
    found["new path"] = sum(1 for stack in head if stack not in base)
    names = [set(f for stack in side for f in stack.split(";")) for side in (base, head)]
    found["new function"] = len(names[1] - names[0])
    found["removed function"] = len(names[0] - names[1])
    return found


# Substrings the brief asks the frame names to show, by language.
SHAPES = ("_[k]", "::{{closure}}", "::h", "core::ptr::drop_in_place<", "java/util/HashMap.get",
          "$$Lambda$", "operator()", "{lambda(", "<int>::", ".(*", "runtime.mallocgc", "_ZN")


def marker_problems(base, head):
    """Renamed, gone, added, inlined and wrapped functions show in their markers."""
    names = [set(f for stack in side for f in stack.split(";")) for side in (base, head)]
    marked = [[set(n for n in side if any(w in n.lower() for w in words)) for side in names]
              for words in (OLD_WORDS, NEW_WORDS)]
    problems = []
    if not marked[0][0] or marked[0][1]:
        problems.append("%d base and %d head names with a removed-function word (want some, "
                        "none)" % (len(marked[0][0]), len(marked[0][1])))
    if marked[1][0] or not marked[1][1]:
        problems.append("%d base and %d head names with a new-function word (want none, "
                        "some)" % (len(marked[1][0]), len(marked[1][1])))
    return problems


def self_check():
    """Generate a small pair twice and check it; True when all is well."""
    problems = []
    tmp = tempfile.mkdtemp(prefix="gen-pair-check-")
    try:
        paths = [os.path.join(tmp, name) for name in ("b1", "h1", "b2", "h2", "b3", "h3")]
        # Separate processes with different string hash seeds, so that
        # anything depending on the process (hash(), ids, time) shows.
        for k, (seed, hash_seed) in enumerate(((7, "1"), (7, "2"), (8, "1"))):
            subprocess.run([sys.executable, os.path.abspath(__file__), "--size-mb", "1",
                            "--seed", str(seed), "--out-base", paths[2 * k],
                            "--out-head", paths[2 * k + 1]],
                           env=dict(os.environ, PYTHONHASHSEED=hash_seed), check=True)
        data = []
        for path in paths:
            with open(path, "rb") as f:
                data.append(f.read())
        if data[0] != data[2] or data[1] != data[3]:
            problems.append("two runs with seed 7 differ")
        if data[0] == data[4]:
            problems.append("seeds 7 and 8 give the same base")
        if not 900000 <= len(data[0]) <= 1100000:
            problems.append("base is %d bytes, not about 1 MB" % len(data[0]))
        base, head, ok = read_pair(paths[0], paths[1])
        if not ok:
            problems.append("a line is not `frame;...;frame COUNT`")
        for name, n in classes(base, head).items():
            print("  %-16s %6d" % (name, n))
            if n == 0:
                problems.append("no %s" % name)
        text = data[0].decode() + data[1].decode()
        for shape in SHAPES:
            if shape not in text:
                problems.append("no frame name with %r" % shape)
        problems += marker_problems(base, head)
        depth = max(stack.count(";") + 1 for stack in base)
        if depth < 100:
            problems.append("deepest stack is %d frames, not hundreds" % depth)
        counts = sorted(base.values())
        if counts[-1] < 100 * counts[len(counts) // 2]:
            problems.append("counts are not heavy-tailed (max %d, median %d)" % (
                counts[-1], counts[len(counts) // 2]))
        if list(base) == sorted(base):
            problems.append("base lines are sorted")
    finally:
        shutil.rmtree(tmp)
    for problem in problems:
        print("gen-pair self-check: %s" % problem, file=sys.stderr)
    print("gen-pair self-check: %s" % ("FAILED" if problems else "ok"))
    return not problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size-mb", type=float, help="approximate size of the base file in MB "
                    "(10^6 bytes)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out-base")
    ap.add_argument("--out-head")
    ap.add_argument("--total-ratio", type=float, default=1.0,
                    help="multiply every head count by this (default 1.0)")
    ap.add_argument("--stats", action="store_true", help="print statistics to stderr")
    ap.add_argument("--self-check", action="store_true",
                    help="check determinism and the difference classes on a small pair")
    args = ap.parse_args()
    if args.self_check:
        sys.exit(0 if self_check() else 1)
    if args.size_mb is None or not args.out_base or not args.out_head:
        ap.error("--size-mb, --out-base and --out-head are required")
    if not 0 < args.size_mb <= 100000 or not 0 < args.total_ratio < 1000:
        ap.error("--size-mb or --total-ratio out of range")
    stats = generate(args.size_mb, args.seed, args.out_base, args.out_head, args.total_ratio,
                     args.stats)
    if args.stats:
        print(stats[0].report("base"), file=sys.stderr)
        print(stats[1].report("head"), file=sys.stderr)


if __name__ == "__main__":
    main()
