/* Unit tests of the configuration parser (csim/cfg). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg/cfg.h"

static void test_defaults_are_valid(void **st)
{
    (void)st;
    struct cfg c;
    char err[256] = "";
    cfg_defaults(&c);
    assert_int_equal(c.num_sms, 15);
    assert_int_equal(c.warp_size, 32);
    assert_int_equal(cfg_validate(&c, err, sizeof err), 0);
}

static void test_shipped_configs_parse(void **st)
{
    (void)st;
    const char *files[] = {"configs/gtx480.conf", "configs/fx5800.conf", "configs/gtx480-gscalar.conf"};
    for (size_t i = 0; i < 3; i++) {
        struct cfg c;
        char err[256] = "";
        cfg_defaults(&c);
        int rc = cfg_load_file(&c, files[i], err, sizeof err);
        if (rc) fprintf(stderr, "%s\n", err);
        assert_int_equal(rc, 0);
    }
    struct cfg c;
    char err[256];
    cfg_defaults(&c);
    assert_int_equal(cfg_load_file(&c, "configs/fx5800.conf", err, sizeof err), 0);
    assert_int_equal(c.num_sms, 30);
    assert_int_equal(c.l1d_line, 64);
    char name[32];
    assert_string_equal(cfg_enum_name("sched_policy", c.sched_policy, name, sizeof name), "two_level");
}

static void test_unknown_key_names_key_and_line(void **st)
{
    (void)st;
    struct cfg c;
    char err[256] = "";
    cfg_defaults(&c);
    assert_int_equal(cfg_parse_text(&c, "x.conf", "# c\nnum_sms = 4\n\nnum_smz = 3\n", err, sizeof err), -1);
    assert_non_null(strstr(err, "x.conf:4"));
    assert_non_null(strstr(err, "num_smz"));
    assert_int_equal(c.num_sms, 4);
}

static void test_bad_values(void **st)
{
    (void)st;
    struct cfg c;
    char err[256] = "";
    cfg_defaults(&c);
    assert_int_equal(cfg_set(&c, "num_sms=0", "--set", err, sizeof err), -1);
    assert_non_null(strstr(err, "num_sms"));
    assert_int_equal(cfg_set(&c, "num_sms=12abc", "--set", err, sizeof err), -1);
    assert_int_equal(cfg_set(&c, "sched_policy=fifo", "--set", err, sizeof err), -1);
    assert_non_null(strstr(err, "lrr|gto"));
    assert_int_equal(cfg_set(&c, "l1d_sector", "--set", err, sizeof err), -1);
    assert_non_null(strstr(err, "key=value"));
    assert_int_equal(cfg_set(&c, " sched_policy = gto ", "--set", err, sizeof err), 0);
    char name[32];
    assert_string_equal(cfg_enum_name("sched_policy", c.sched_policy, name, sizeof name), "gto");
    assert_int_equal(cfg_set(&c, "l1d_size=0x8000", "--set", err, sizeof err), 0);
    assert_int_equal(c.l1d_size, 32768);
}

static void test_cross_key_rules(void **st)
{
    (void)st;
    struct cfg c;
    char err[256] = "";
    cfg_defaults(&c);
    assert_int_equal(cfg_parse_text(&c, "y.conf", "l1d_sector = 48\n", err, sizeof err), -1);
    assert_non_null(strstr(err, "l1d_sector"));
}

static void test_dump_roundtrips(void **st)
{
    (void)st;
    struct cfg a, b;
    char err[256] = "";
    cfg_defaults(&a);
    assert_int_equal(cfg_load_file(&a, "configs/fx5800.conf", err, sizeof err), 0);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cfg_dump(f, &a);
    fclose(f);
    cfg_defaults(&b);
    int rc = cfg_parse_text(&b, "dump", buf, err, sizeof err);
    free(buf);
    assert_int_equal(rc, 0);
    assert_memory_equal(&a, &b, sizeof a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults_are_valid),
        cmocka_unit_test(test_shipped_configs_parse),
        cmocka_unit_test(test_unknown_key_names_key_and_line),
        cmocka_unit_test(test_bad_values),
        cmocka_unit_test(test_cross_key_rules),
        cmocka_unit_test(test_dump_roundtrips),
    };
    return cmocka_run_group_tests_name("cfg", tests, NULL, NULL);
}
