/* no_namespaces [--uid N] PROGRAM [ARGS...]: runs PROGRAM where the kernel refuses new user
 * namespaces, as Docker's default seccomp profile does: clone() and unshare() with
 * CLONE_NEWUSER fail with EPERM, clone3() with ENOSYS (so callers fall back to clone()). A
 * seccomp filter: it changes nothing outside this process tree. Installed by an ordinary user
 * it needs no_new_privs, which also disables setuid programs; root installs it without, and
 * with --uid N then becomes user N (and its group), so setuid programs keep working. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define ARG0 offsetof(struct seccomp_data, args[0])
#define NR offsetof(struct seccomp_data, nr)

int main(int argc, char** argv) {
    long uid = -1;
    if (argc > 3 && strcmp(argv[1], "--uid") == 0) {
        uid = strtol(argv[2], NULL, 10);
        argv += 2;
        argc -= 2;
    }
    if (argc < 2) {
        fprintf(stderr, "usage: no_namespaces [--uid N] PROGRAM [ARGS...]\n");
        return 2;
    }
    struct sock_filter code[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, NR),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone3, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 1, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_unshare, 0, 3),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG0),
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_NEWUSER, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog = {sizeof code / sizeof code[0], code};
    if ((geteuid() != 0 && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) ||
        prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) {
        perror("no_namespaces: seccomp");
        return 2;
    }
    if (uid >= 0 && (setgroups(0, NULL) != 0 || setgid((gid_t)uid) != 0 || setuid((uid_t)uid) != 0)) {
        perror("no_namespaces: becoming the user");
        return 2;
    }
    execv(argv[1], argv + 1);
    perror("no_namespaces: exec");
    return 127;
}
