/* lockstep: command-line entry point (dispatch, --help, --version). */
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/cli_diff.h"

static void usage(FILE *f)
{
    fprintf(f,
"usage: lockstep COMMAND [ARGS]\n"
"\n"
"Cycle-level SIMT GPU model that runs nvcc PTX (sm_75).\n"
"\n"
"commands:\n"
"  list workloads            names of the built-in CUDA workloads\n"
"  list workloads @CAT       those of a measured category (@divergent, ...)\n"
"  list configs              names of the GPU configurations (configs/*.conf)\n"
"  check FILE.ptx            parse and analyse a PTX file, print a summary;\n"
"                            errors are reported as file:line:col\n"
"  check [--json] PATH...    load many PTX files (a directory: every *.ptx\n"
"                            under it): a line per file that does not load,\n"
"                            then \"N of M load\" (exit 2 unless all load)\n"
"  check --affine PTX|WORKLOAD|all...  affine class of every instruction:\n"
"                            U uniform, A affine in tid/ctaid, N non-affine,\n"
"                            and the potentially-affine fraction; --kernel K,\n"
"                            --json (docs/dac.md)\n"
"  check --dac PTX|WORKLOAD|all...  the DAC transform: affine stream with\n"
"                            enq.data/.addr/.pred, main stream with deq ops,\n"
"                            fraction of loads decoupled; --kernel K, --json\n"
"  branches PTX|WORKLOAD|all...  class of every conditional branch: P\n"
"                            (thread ids, parameters, constants) or D (data);\n"
"                            --kernel K, --control (control dependence too),\n"
"                            --json (docs/branch-classes.md)\n"
"  run WORKLOAD...|all       run workloads against their CPU reference\n"
"      --size small|default|large|xlarge   input size (default: default;\n"
"                            xlarge: gaussian, kmeans, sobflt, ssc only)\n"
"      --seed N              input seed (default: 1)\n"
"      --stats-json FILE     write statistics as JSON ('-' for stdout)\n"
"      --table               one aligned table for all workloads\n"
"      --jobs N, -jN         workloads run side by side (default: the number\n"
"                            of cores; output as with -j1, in order)\n"
"      --mode functional|timing      functional (instruction-accurate) or\n"
"                            cycle-level timing (default: the library's)\n"
"      --config NAME|FILE    GPU configuration: a shipped name (list configs)\n"
"                            or a key=value file (default: built-in GTX480)\n"
"      --set key=value       override one config key (repeatable)\n"
"      --cosim LIST          blocks run against their RTL: slp,... | all | none\n"
"      --backend c|rtl|lockstep|netlist  what --cosim gives them (default lockstep)\n"
"      --rtl BLK=FILE.v      verilate your RTL for block BLK (checked in the loop)\n"
"      --cosim-continue      count mismatches and go on (default: stop at the first)\n"
"      --junit FILE          JUnit XML: a testcase per workload and per block\n"
"      --fail-dir DIR        mismatch traces/FSTs go to DIR/WORKLOAD/ (default\n"
"                            build/fail under the source tree)\n"
"      --commit-log FILE     one line per executed warp instruction (one workload)\n"
"      --compare-modes       run functional and timing with commit logs and\n"
"                            compare them warp by warp (one workload)\n"
"      --check LIST          memcheck,racecheck,synccheck,initcheck | all | none:\n"
"                            undefined behaviour found (docs/checks.md)\n"
"      --check-error         a check finding fails the launch (exit status 4)\n"
"      --memcheck MODE       error (default) | warn | off: a global access outside\n"
"                            its allocation stops the launch, or is reported\n"
"                            once and goes on in the memory a GPU maps around\n"
"                            the allocations (docs/checks.md)\n"
"      --schedule MODE       block (default) | interleave: functional mode runs\n"
"                            a warp until it waits, or one instruction of each\n"
"                            warp in turn (racy programs behave as on a GPU)\n"
"  exec [OPTIONS] -- PROGRAM [ARGS]\n"
"                            run a CUDA program built with nvcc -cudart shared\n"
"                            on the simulator (docs/cuda-programs.md); takes\n"
"                            --mode, --config, --set, --cosim, --check,\n"
"                            --memcheck, --schedule,\n"
"                            --stats-json FILE, --quiet\n"
"  diff OLD.json NEW.json    compare two --stats-json files figure by figure\n"
"                            (exit 1: a result changed or a figure moved more\n"
"                            than --tol; docs/golden.md)\n"
"      --tol PCT             a figure may change by PCT percent (default 0)\n"
"      --only KEY,...        only these figures and what is under them\n"
"                            (cycles,l1d,stall.scoreboard)\n"
"      --format text|markdown|json   output format (default text)\n"
"  diff --commit-log [--per-thread] A B  first differing record of each warp\n"
"                            (or thread), by lane\n"
"  replay TRACE [--fst F]    re-run a block trace written on a mismatch on the\n"
"                            C model and the RTL (no GPU); F gets the waveform\n"
"  coverage WORKLOAD...|all [run options] [--json F]\n"
"                            the blocks' functional coverage bins the kernels\n"
"                            reach (docs/blocks/coverage.md)\n"
"  config [--config X] [--set k=v]... --dump\n"
"                            print the effective configuration; a bad key or\n"
"                            value is an error naming the key and line\n"
"  config --keys             every config key as a JSON line: kind, default,\n"
"                            range or choices, doc\n"
"  --help                    this text\n"
"  --version                 print the version\n"
"\n"
"exit status: 0 success, 1 a failing run (wrong result), 2 a usage or parse\n"
"error, 3 an RTL block disagreed with its C model (lockstep mismatch), 4 a\n"
"check finding under --check-error, 130\n"
"interrupted (Ctrl-C: the kernel in flight reports its statistics so far;\n"
"a second Ctrl-C exits at once)\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        usage(stdout);
        return CLI_OK;
    }
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
        printf("lockstep %s\n", CLI_VERSION);
        return CLI_OK;
    }
    if (!strcmp(cmd, "list"))
        return cli_list(argv[0], argc - 2, argv + 2);
    if (!strcmp(cmd, "check"))
        return cli_check(argc - 2, argv + 2);
    if (!strcmp(cmd, "branches"))
        return cli_branches(argc - 2, argv + 2);
    if (!strcmp(cmd, "run"))
        return cli_run(argc - 2, argv + 2);
    if (!strcmp(cmd, "diff") && argc >= 3 && !strcmp(argv[2], "--commit-log")) {
        bool pt = argc >= 4 && !strcmp(argv[3], "--per-thread");
        if (argc != 5 + pt) {
            fprintf(stderr, "usage: lockstep diff --commit-log [--per-thread] EXPECTED ACTUAL\n");
            return CLI_USAGE;
        }
        return cli_commit_diff_opt(argv[3 + pt], argv[4 + pt], argv[3 + pt], argv[4 + pt],
                                   pt, stdout);
    }
    if (!strcmp(cmd, "diff"))
        return cli_diff(argc - 2, argv + 2);
    if (!strcmp(cmd, "replay"))
        return cli_replay(argc - 2, argv + 2);
    if (!strcmp(cmd, "coverage"))
        return cli_coverage(argc - 2, argv + 2);
    if (!strcmp(cmd, "config"))
        return cli_config(argc - 2, argv + 2);
    if (!strcmp(cmd, "exec"))
        return cli_exec(argc - 2, argv + 2);
    fprintf(stderr, "lockstep: unknown command '%s' (try lockstep --help)\n", cmd);
    return CLI_USAGE;
}
