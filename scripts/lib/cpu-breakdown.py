#!/usr/bin/env python3
"""Sorts the samples of `perf script -F tid,ip,sym,dso` (stdin) into where server CPU goes.

Usage: perf script -i perf.data -F tid,ip,sym,dso | cpu-breakdown.py MICROSECONDS_PER_OP
Prints one line per category: share of the samples and, scaled by the measured server CPU per
operation, microseconds per operation. Categories look at the leaf frame, and at the stack for
kernel samples (send path, wake-ups, reads).
"""
import collections
import sys


def category(frames):
    leaf = frames[0]
    stack = " ".join(frames)
    if "libcrypto" in leaf or "libssl" in leaf:
        return "OpenSSL (AES-GCM, records, handshakes)"
    if "kallsyms" in leaf:
        if any(s in stack for s in ("__send", "tcp_sendmsg", "sock_sendmsg", "__libc_write")):
            return "kernel: TCP send (copy, loopback)"
        if any(s in stack for s in ("pwrite", "pread", "fsync", "fdatasync", "ext4")):
            return "kernel: file I/O (SQLite)"
        if any(s in stack for s in ("epoll", "futex", "eventfd", "schedule", "finish_task_switch")):
            return "kernel: wake-ups, scheduling, epoll"
        if any(s in stack for s in ("__libc_read", " read", "recv")):
            return "kernel: socket reads"
        return "kernel: other (page faults, timers)"
    if "memmove" in leaf or "memcpy" in leaf or "memset" in leaf:
        return "memory copies and fills"
    if "sqlite" in leaf:
        return "SQLite"
    if any(s in leaf for s in ("malloc", "free", "_int_", "unlink_chunk", "consolidate", "sysmalloc")):
        return "malloc/free"
    if "libswift" in leaf or "libdispatch" in leaf or "libFoundation" in leaf:
        return "Swift runtime"
    if "snapshare-server" in leaf:
        return "snapshare-server code"
    return "other libc (locks, system call stubs)"


def main():
    per_op = float(sys.argv[1]) if len(sys.argv) > 1 else 0.0
    counts = collections.Counter()
    frames = []
    for line in sys.stdin.read().split("\n") + [""]:
        line = line.strip()
        if line:
            frames.append(line)
            continue
        # The first line of a sample names the thread; the rest is its stack, leaf first.
        if len(frames) > 1:
            counts[category(frames[1:])] += 1
        frames = []
    total = sum(counts.values())
    if total == 0:
        sys.exit("no samples")
    for name, count in counts.most_common():
        print(f"{name:42s} {100 * count / total:5.1f} %  {per_op * count / total:7.1f} µs/op")
    print(f"{'(samples)':42s} {total}")


main()
