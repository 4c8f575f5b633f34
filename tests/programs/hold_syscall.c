/* hold_syscall [--from N] (--exec SUFFIX | --sethostname) PROGRAM [ARGS...]: runs PROGRAM (in this
 * process, so it keeps the pid its caller knows) under a seccomp filter whose user
 * notifications go to a supervisor that never answers some calls, the way a container
 * runtime's supervisor can hang, or an exec from a hung network file system: the call blocks
 * in the kernel until the process is killed.
 *   --exec SUFFIX   every execve whose file name ends with SUFFIX is held (others go on);
 *   --sethostname   every sethostname is held (only cgbench's sandbox setup calls it);
 *   --from N        only the Nth of those calls and the ones after it (default 1).
 * The supervisor is a child of PROGRAM that ends with it (PR_SET_PDEATHSIG). Reading a held
 * process's file name needs ptrace access to it (root, or an ancestor). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NR offsetof(struct seccomp_data, nr)

static int send_fd(int sock, int fd) {
    char byte = 0;
    struct iovec iov = {&byte, 1};
    char control[CMSG_SPACE(sizeof(int))] = {0};
    struct msghdr msg = {
        .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control, .msg_controllen = sizeof control};
    struct cmsghdr* c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &fd, sizeof fd);
    return sendmsg(sock, &msg, 0) == 1 ? 0 : -1;
}

static int receive_fd(int sock) {
    char byte = 0;
    struct iovec iov = {&byte, 1};
    char control[CMSG_SPACE(sizeof(int))] = {0};
    struct msghdr msg = {
        .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control, .msg_controllen = sizeof control};
    if (recvmsg(sock, &msg, 0) != 1) return -1;
    struct cmsghdr* c = CMSG_FIRSTHDR(&msg);
    int fd = -1;
    if (c != NULL && c->cmsg_type == SCM_RIGHTS) memcpy(&fd, CMSG_DATA(c), sizeof fd);
    return fd;
}

/* Whether the file name at `address` in process `pid` ends with `suffix`. */
static int names_suffix(pid_t pid, unsigned long address, const char* suffix) {
    char path[64], name[4096];
    snprintf(path, sizeof path, "/proc/%d/mem", (int)pid);
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    const ssize_t n = pread(fd, name, sizeof name - 1, (off_t)address);
    close(fd);
    if (n <= 0) return 0;
    name[n] = '\0';
    const size_t len = strlen(name), slen = strlen(suffix);
    return len >= slen && strcmp(name + len - slen, suffix) == 0;
}

/* Answers the notifications on `listener` until every filtered process is gone. */
static void supervise(int listener, const char* suffix, long from) {
    long seen = 0;
    struct seccomp_notif_sizes sizes;
    if (syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) != 0) _exit(1);
    struct seccomp_notif* req = calloc(1, sizes.seccomp_notif);
    struct seccomp_notif_resp* resp = calloc(1, sizes.seccomp_notif_resp);
    while (1) {
        memset(req, 0, sizes.seccomp_notif);
        if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, req) != 0) {
            if (errno == EINTR || errno == ENOENT) continue;
            _exit(0); /* no filtered process is left */
        }
        int hold = suffix == NULL;
        if (suffix != NULL) {
            const unsigned long file =
                req->data.nr == SYS_execveat ? req->data.args[1] : req->data.args[0];
            hold = names_suffix(req->pid, file, suffix);
        }
        if (hold && ++seen < from) hold = 0;
        if (hold) {
            fprintf(stderr, "hold_syscall: holding system call %d of process %d\n", req->data.nr,
                    (int)req->pid);
            continue; /* never answered: the call blocks until the process is killed */
        }
        memset(resp, 0, sizes.seccomp_notif_resp);
        resp->id = req->id;
        resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
        ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, resp);
    }
}

int main(int argc, char** argv) {
    const char* suffix = NULL;
    long from = 1;
    if (argc > 3 && strcmp(argv[1], "--from") == 0) {
        from = strtol(argv[2], NULL, 10);
        argv += 2;
        argc -= 2;
    }
    int first = 2;
    if (argc > 3 && strcmp(argv[1], "--exec") == 0) {
        suffix = argv[2];
        first = 3;
    } else if (argc < 3 || strcmp(argv[1], "--sethostname") != 0) {
        fprintf(stderr,
                "usage: hold_syscall [--from N] (--exec SUFFIX | --sethostname) PROGRAM "
                "[ARGS...]\n");
        return 2;
    }
    struct sock_filter exec_code[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, NR),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_execve, 1, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_execveat, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_filter hostname_code[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, NR),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_sethostname, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog = {suffix != NULL ? 5 : 4, suffix != NULL ? exec_code : hostname_code};
    int sock[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sock) != 0) {
        perror("hold_syscall: socketpair");
        return 2;
    }
    const pid_t parent = getpid();
    const pid_t supervisor = fork();
    if (supervisor == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(0);
        close(sock[0]);
        const int listener = receive_fd(sock[1]);
        if (listener < 0) _exit(1);
        supervise(listener, suffix, from);
        _exit(0);
    }
    close(sock[1]);
    if ((geteuid() != 0 && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)) {
        perror("hold_syscall: no_new_privs");
        return 2;
    }
    const int listener =
        (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
    if (listener < 0 || send_fd(sock[0], listener) != 0) {
        perror("hold_syscall: seccomp");
        return 2;
    }
    close(listener);
    close(sock[0]);
    execv(argv[first], argv + first);
    perror("hold_syscall: exec");
    return 127;
}
