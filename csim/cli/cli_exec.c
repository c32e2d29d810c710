/* `lockstep exec [options] -- PROGRAM ARGS`: runs an unmodified CUDA
 * program (built with nvcc -cudart shared) on the simulator: the machine
 * options become the LOCKSTEP_* variables build/libcudart.so.13 reads, the
 * library is preloaded, and the program runs as a child whose exit status
 * is this command's (a failing one is told about races). Before that, the
 * program's ELF file is checked for what would otherwise fail
 * inside the dynamic loader: the static CUDA runtime, another CUDA
 * major version, a symbol or symbol version the library does not have
 * (docs/cuda-programs.md). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli/cli.h"

#define CUDART_SONAME "libcudart.so.13"
#define EXEC_MAX_ELF (1u << 30)

/* The program file: argv0 itself when it has a slash, else found on PATH. */
static int find_program(const char *argv0, char *out, size_t n)
{
    if (strchr(argv0, '/')) {
        snprintf(out, n, "%s", argv0);
        return access(out, X_OK) == 0 ? 0 : -1;
    }
    const char *path = getenv("PATH");
    while (path && *path) {
        size_t k = strcspn(path, ":");
        snprintf(out, n, "%.*s/%s", (int)k, k ? path : ".", argv0);
        if (access(out, X_OK) == 0)
            return 0;
        path += k + (path[k] == ':');
    }
    return -1;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long sz = ftell(f);
        if (sz > 0 && (unsigned long)sz <= EXEC_MAX_ELF && fseek(f, 0, SEEK_SET) == 0 &&
            (buf = malloc((size_t)sz)) && fread(buf, 1, (size_t)sz, f) != (size_t)sz) {
            free(buf);
            buf = NULL;
        }
        *len = buf ? (size_t)sz : 0;
    }
    fclose(f);
    return buf;
}

/* A section of the ELF image, or NULL if absent or out of the file. */
static const Elf64_Shdr *section(const char *img, size_t len, Elf64_Word type)
{
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;
    if (eh->e_shoff > len || eh->e_shentsize != sizeof(Elf64_Shdr) ||
        (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) > len - eh->e_shoff)
        return NULL;
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(img + eh->e_shoff);
    for (unsigned i = 0; i < eh->e_shnum; i++)
        if (sh[i].sh_type == type && sh[i].sh_offset <= len &&
            sh[i].sh_size <= len - sh[i].sh_offset)
            return &sh[i];
    return NULL;
}

static const char *str_at(const char *img, size_t len, const Elf64_Shdr *strtab,
                          uint64_t off)
{
    if (!strtab || off >= strtab->sh_size)
        return "";
    const char *s = img + strtab->sh_offset + off;
    return memchr(s, 0, strtab->sh_size - off) ? s : "";
    (void)len;
}

/* Checks that prog can bind to lib. Returns 0 (run it), or 2 after
 * printing why not. */
static int check_elf(const char *prog, const char *lib)
{
    size_t len = 0;
    char *img = read_file(prog, &len);
    if (!img || len < sizeof(Elf64_Ehdr) || memcmp(img, ELFMAG, SELFMAG) ||
        img[EI_CLASS] != ELFCLASS64) {
        free(img);
        return 0;                  /* a script or launcher: nothing to check */
    }
    const char *img_c = img;
    const Elf64_Shdr *dynsym = section(img_c, len, SHT_DYNSYM);
    const Elf64_Shdr *versym = section(img_c, len, SHT_GNU_versym);
    const Elf64_Shdr *verneed = section(img_c, len, SHT_GNU_verneed);
    const Elf64_Shdr *dyn = section(img_c, len, SHT_DYNAMIC);
    const Elf64_Shdr *shs = (const Elf64_Shdr *)(img + ((const Elf64_Ehdr *)img)->e_shoff);
    const Elf64_Shdr *dynstr = dynsym && dynsym->sh_link < ((const Elf64_Ehdr *)img)->e_shnum
                                   ? &shs[dynsym->sh_link] : NULL;
    int rc = 0, needs = 0;
    /* NEEDED: our soname, another CUDA runtime, or none at all */
    for (size_t o = 0; dyn && o + sizeof(Elf64_Dyn) <= dyn->sh_size; o += sizeof(Elf64_Dyn)) {
        const Elf64_Dyn *d = (const Elf64_Dyn *)(img + dyn->sh_offset + o);
        if (d->d_tag != DT_NEEDED)
            continue;
        const char *nm = str_at(img, len, dynstr, d->d_un.d_val);
        if (!strcmp(nm, CUDART_SONAME))
            needs = 1;
        else if (!strncmp(nm, "libcudart.so", 12)) {
            fprintf(stderr, "lockstep: exec: %s needs %s; Lockstep's runtime is %s "
                    "(the CUDA 13 runtime API): rebuild it with nvcc 13 "
                    "(cudaErrorInsufficientDriver)\n", prog, nm, CUDART_SONAME);
            rc = CLI_USAGE;
        } else if (!strcmp(nm, "libcuda.so.1")) {
            fprintf(stderr, "lockstep: exec: %s links the CUDA driver API "
                    "(libcuda.so.1), which Lockstep does not provide; only the "
                    "runtime API runs here (cudaErrorNotSupported)\n", prog);
            rc = CLI_USAGE;
        }
    }
    int static_rt = 0;
    for (size_t o = 0; dynsym && o + sizeof(Elf64_Sym) <= dynsym->sh_size;
         o += sizeof(Elf64_Sym)) {
        const Elf64_Sym *s = (const Elf64_Sym *)(img + dynsym->sh_offset + o);
        const char *nm = str_at(img, len, dynstr, s->st_name);
        if (!strcmp(nm, "__cudaRegisterFatBinary") && s->st_shndx != SHN_UNDEF)
            static_rt = 1;
    }
    const Elf64_Shdr *symtab = section(img_c, len, SHT_SYMTAB);
    const Elf64_Shdr *strtab = symtab && symtab->sh_link < ((const Elf64_Ehdr *)img)->e_shnum
                                   ? &shs[symtab->sh_link] : NULL;
    for (size_t o = 0; !needs && symtab && o + sizeof(Elf64_Sym) <= symtab->sh_size;
         o += sizeof(Elf64_Sym)) {
        const Elf64_Sym *s = (const Elf64_Sym *)(img + symtab->sh_offset + o);
        if (s->st_shndx != SHN_UNDEF &&
            !strcmp(str_at(img, len, strtab, s->st_name), "__cudaRegisterFatBinary"))
            static_rt = 1;
    }
    if (!needs && static_rt && !rc) {
        fprintf(stderr, "lockstep: exec: %s is linked with the static CUDA runtime "
                "(nvcc's default, -cudart static), which talks to a real GPU: "
                "rebuild it with nvcc -cudart shared\n", prog);
        rc = CLI_USAGE;
    }
    if (!needs || rc) {
        if (!needs && !rc)
            fprintf(stderr, "lockstep: exec: note: %s does not link %s; running it "
                    "anyway (a launcher may start a CUDA program)\n", prog,
                    CUDART_SONAME);
        free(img);
        return rc;
    }
    /* the version names the program wants from libcudart.so.13 (index ->
     * name), then each undefined symbol bound to one of them */
    const char *vname[64] = { 0 };
    for (size_t o = 0; verneed && o + sizeof(Elf64_Verneed) <= verneed->sh_size;) {
        const Elf64_Verneed *vn = (const Elf64_Verneed *)(img + verneed->sh_offset + o);
        const Elf64_Shdr *vs = &shs[verneed->sh_link < ((const Elf64_Ehdr *)img)->e_shnum
                                    ? verneed->sh_link : 0];
        int ours = !strcmp(str_at(img, len, vs, vn->vn_file), CUDART_SONAME);
        size_t a = o + vn->vn_aux;
        for (unsigned k = 0; k < vn->vn_cnt && a + sizeof(Elf64_Vernaux) <= verneed->sh_size; k++) {
            const Elf64_Vernaux *va = (const Elf64_Vernaux *)(img + verneed->sh_offset + a);
            if (ours && (va->vna_other & 0x7fff) < 64)
                vname[va->vna_other & 0x7fff] = str_at(img, len, vs, va->vna_name);
            if (!va->vna_next)
                break;
            a += va->vna_next;
        }
        if (!vn->vn_next)
            break;
        o += vn->vn_next;
    }
    void *h = dlopen(lib, RTLD_LAZY | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "lockstep: exec: cannot load %s: %s\n", lib, dlerror());
        free(img);
        return CLI_USAGE;
    }
    size_t nsym = dynsym->sh_size / sizeof(Elf64_Sym), bad = 0;
    for (size_t i = 1; i < nsym; i++) {
        const Elf64_Sym *s = (const Elf64_Sym *)(img + dynsym->sh_offset) + i;
        if (s->st_shndx != SHN_UNDEF || !versym ||
            (i + 1) * sizeof(Elf64_Half) > versym->sh_size)
            continue;
        unsigned v = ((const Elf64_Half *)(img + versym->sh_offset))[i] & 0x7fff;
        if (v >= 64 || !vname[v])
            continue;
        const char *nm = str_at(img, len, dynstr, s->st_name);
        if (!dlvsym(h, nm, vname[v])) {
            if (bad++ < 8)
                fprintf(stderr, "lockstep: exec: %s needs %s@%s, which Lockstep's "
                        "runtime (%s) does not provide "
                        "(cudaErrorSharedObjectSymbolNotFound)\n", prog, nm, vname[v],
                        lib);
        }
    }
    dlclose(h);
    free(img);
    return bad ? CLI_USAGE : 0;
}

static int set_env(const char *k, const char *v)
{
    if (setenv(k, v, 1) == 0)
        return 0;
    fprintf(stderr, "lockstep: exec: setenv %s: %s\n", k, strerror(errno));
    return -1;
}

/* Prepends dir (or file) to the colon-separated variable k. */
static int prepend_env(const char *k, const char *v)
{
    const char *old = getenv(k);
    if (!old || !*old)
        return set_env(k, v);
    size_t n = strlen(v) + strlen(old) + 2;
    char *s = malloc(n);
    if (!s)
        return -1;
    snprintf(s, n, "%s:%s", v, old);
    int rc = set_env(k, s);
    free(s);
    return rc;
}

static int usage_err(const char *msg)
{
    fprintf(stderr, "lockstep: exec: %s\nusage: lockstep exec [--mode M] [--config C] "
            "[--set k=v]... [--cosim LIST] [--check LIST] [--memcheck error|warn|off] "
            "[--schedule block|interleave] "
            "[--stats-json F] [--quiet] "
            "-- PROGRAM [ARGS]\n", msg);
    return CLI_USAGE;
}

int cli_exec(int argc, char **argv)
{
    struct cli_machine m;
    if (cli_machine_alloc(&m, argc)) {
        fprintf(stderr, "lockstep: out of memory\n");
        return CLI_FAIL;
    }
    const char *stats = NULL;
    int quiet = 0, i = 0, rc = 0;
    for (; i < argc && !rc; i++) {
        if (!strcmp(argv[i], "--")) {
            i++;
            break;
        }
        if (argv[i][0] != '-')
            break;
        int k = cli_machine_opt(&m, argc, argv, &i, "exec");
        if (k == 1) {
            if (m.nrtl)
                rc = usage_err("--rtl is not supported by exec (use --cosim)");
            continue;
        }
        if (k)
            rc = CLI_USAGE;
        else if (!strcmp(argv[i], "--stats-json") && i + 1 < argc)
            stats = argv[++i];
        else if (!strncmp(argv[i], "--stats-json=", 13))
            stats = argv[i] + 13;
        else if (!strcmp(argv[i], "--quiet"))
            quiet = 1;
        else {
            char msg[300];
            snprintf(msg, sizeof msg, "unknown option '%.200s'", argv[i]);
            rc = usage_err(msg);
        }
    }
    if (!rc && i >= argc)
        rc = usage_err("no program to run");
    ls_config cfg;
    ls_config_default(&cfg);
    if (!rc) {
        cli_machine_apply(&m, &cfg);
        rc = cli_machine_check(&cfg, "exec");
    }
    char self[PATH_MAX], lib[PATH_MAX + 32], prog[PATH_MAX];
    ssize_t n = rc ? -1 : readlink("/proc/self/exe", self, sizeof self - 1);
    if (!rc && n <= 0) {
        fprintf(stderr, "lockstep: exec: cannot find this executable: %s\n",
                strerror(errno));
        rc = CLI_FAIL;
    }
    if (!rc) {
        self[n] = 0;
        char *slash = strrchr(self, '/');
        *slash = 0;
        snprintf(lib, sizeof lib, "%s/%s", self, CUDART_SONAME);
        if (access(lib, R_OK)) {
            fprintf(stderr, "lockstep: exec: %s is missing: build it with `make "
                    "cudart`\n", lib);
            rc = CLI_FAIL;
        }
    }
    if (!rc && find_program(argv[i], prog, sizeof prog)) {
        fprintf(stderr, "lockstep: exec: %s: no such executable\n", argv[i]);
        rc = CLI_USAGE;
    }
    if (!rc)
        rc = check_elf(prog, lib);
    /* the machine options, as the library reads them (docs/cuda-programs.md) */
    char sets[8192] = "";
    size_t o = 0;
    for (int k = 0; !rc && cfg.sets && cfg.sets[k]; k++) {
        int w = snprintf(sets + o, sizeof sets - o, "%s%s", k ? "," : "", cfg.sets[k]);
        if (w < 0 || (size_t)w >= sizeof sets - o)
            rc = usage_err("too many --set values");
        else
            o += (size_t)w;
    }
    if (!rc && ((m.mode >= 0 && set_env("LOCKSTEP_MODE", m.mode == LS_MODE_TIMING
                                        ? "timing" : "functional")) ||
                (cfg.config && set_env("LOCKSTEP_CONFIG", cfg.config)) ||
                (o && set_env("LOCKSTEP_SET", sets)) ||
                (stats && set_env("LOCKSTEP_STATS", stats)) ||
                (quiet && set_env("LOCKSTEP_QUIET", "1")) ||
                prepend_env("LD_PRELOAD", lib) || prepend_env("LD_LIBRARY_PATH", self)))
        rc = CLI_FAIL;
    cli_machine_free(&m);
    if (rc)
        return rc;
    fflush(NULL);
    /* the program runs as a child, so that a failing run can be told what
     * to try when its result depends on the order threads run in */
    pid_t pid = fork();
    if (pid == 0) {
        execv(prog, argv + i);
        fprintf(stderr, "lockstep: exec: cannot run %s: %s\n", prog, strerror(errno));
        _exit(127);             /* as a shell says "cannot run" */
    }
    if (pid < 0) {
        fprintf(stderr, "lockstep: exec: cannot start %s: %s\n", prog, strerror(errno));
        return CLI_FAIL;
    }
    signal(SIGINT, SIG_IGN);    /* the terminal's ^C is the program's */
    signal(SIGQUIT, SIG_IGN);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    if (code && code != 127 && !quiet && !strstr(sets, "racecheck") &&
        !strstr(sets, "check=all"))
        fprintf(stderr, "lockstep: exec: %s exited with status %d. If its result is "
                "wrong or differs between --mode functional and timing, it may race on "
                "memory in a way a GPU's schedule hides: --check racecheck finds "
                "shared-memory races, --schedule interleave runs warps as a GPU does "
                "(docs/cuda-programs.md)\n", argv[i], code);
    if (WIFSIGNALED(status)) {  /* end as the program did */
        signal(WTERMSIG(status), SIG_DFL);
        raise(WTERMSIG(status));
    }
    return code;
}
