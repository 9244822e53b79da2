/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * replay_main.c -- a plain main() for the fuzz targets, so that any
 * compiler (no libFuzzer needed) can run saved inputs through a harness.
 *
 *   replay_fuzz_X [FILE | DIR]...
 *
 * Each FILE, and each regular file directly inside each DIR (sorted by
 * name, dot files skipped), is read into a buffer of exactly its size (so
 * that AddressSanitizer sees any over-read) and passed to
 * LLVMFuzzerTestOneInput. Output is TAP, one test point per input.
 *
 * With no arguments it replays the target's seed corpus and regression
 * inputs, $top_srcdir/corpus/<target>/ and $top_srcdir/fuzz/regressions/
 * <target>/ (top_srcdir defaults to "."), and the seeds that
 * $top_srcdir/fuzz/seed-sources.list names for it (files or directories
 * elsewhere in the tree); this is what `make check` runs. A missing corpus
 * directory or listed seed is a failure, a missing regressions directory
 * is not (a target may have no crash fixed yet).
 *
 * A harness reports a finding by aborting (or through a sanitizer), so a
 * failing input stops the replay; the "# input" comment before each run
 * names it.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef FUZZ_TARGET_NAME
#error "compile with -DFUZZ_TARGET_NAME=\"fuzz_x\""
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

struct path_list {
    char **paths;
    size_t count, capacity;
};

static void add_path(struct path_list *list, const char *path)
{
    if (list->count == list->capacity) {
        list->capacity = list->capacity ? 2 * list->capacity : 64;
        list->paths = realloc(list->paths, list->capacity * sizeof *list->paths);
        if (!list->paths) {
            perror("replay");
            exit(2);
        }
    }
    list->paths[list->count] = strdup(path);
    if (!list->paths[list->count]) {
        perror("replay");
        exit(2);
    }
    list->count++;
}

static int compare_paths(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Add the regular files inside `dir`. Returns 0, or -1 when it cannot be
 * opened (errno set). */
static int add_directory(struct path_list *list, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    size_t first = list->count;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        size_t n = strlen(dir) + strlen(e->d_name) + 2;
        char *path = malloc(n);
        if (!path) {
            perror("replay");
            exit(2);
        }
        snprintf(path, n, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
            add_path(list, path);
        free(path);
    }
    closedir(d);
    qsort(list->paths + first, list->count - first, sizeof *list->paths, compare_paths);
    return 0;
}

/* Read a whole file into a buffer of exactly its size (malloc(1) when
 * empty, never touched). */
static uint8_t *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    uint8_t *buf = NULL;
    size_t n = 0;
    if (fseek(f, 0, SEEK_END) == 0) {
        long end = ftell(f);
        if (end >= 0 && fseek(f, 0, SEEK_SET) == 0) {
            n = (size_t)end;
            buf = malloc(n ? n : 1);
            if (buf && fread(buf, 1, n, f) != n) {
                free(buf);
                buf = NULL;
            }
        }
    }
    fclose(f);
    *size = n;
    return buf;
}

/* Add a file, or the regular files inside a directory. Returns 0, or -1
 * (errno set). */
static int add_file_or_directory(struct path_list *list, const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return -1;
    if (S_ISDIR(st.st_mode))
        return add_directory(list, path);
    add_path(list, path);
    return 0;
}

/* Add the seeds fuzz/seed-sources.list names for this target ("TARGET
 * PATH" lines, '#' comments). Returns the number of entries that could
 * not be added (each reported), or -1 when the list cannot be read. */
static int add_listed_seeds(struct path_list *list, const char *top)
{
    char path[4096], line[1024];
    snprintf(path, sizeof path, "%s/fuzz/seed-sources.list", top);
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        return -1;
    }
    int missing = 0;
    while (fgets(line, sizeof line, f)) {
        char target[256], seed[768];
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        if (sscanf(line, "%255s %767s", target, seed) != 2 ||
            strcmp(target, FUZZ_TARGET_NAME) != 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", top, seed);
        if (add_file_or_directory(list, path) != 0) {
            fprintf(stderr, "replay: listed seed %s: %s\n", path, strerror(errno));
            missing++;
        }
    }
    fclose(f);
    return missing;
}

int main(int argc, char **argv)
{
    struct path_list inputs = {0};
    int setup_failures = 0;

    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);

    if (argc > 1) {
        for (int i = 1; i < argc; i++) {
            struct stat st;
            if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
                if (add_directory(&inputs, argv[i]) != 0) {
                    fprintf(stderr, "replay: %s: %s\n", argv[i], strerror(errno));
                    setup_failures++;
                }
            } else {
                add_path(&inputs, argv[i]);
            }
        }
    } else {
        const char *top = getenv("top_srcdir");
        char dir[4096];
        if (!top || !*top)
            top = ".";
        snprintf(dir, sizeof dir, "%s/corpus/%s", top, FUZZ_TARGET_NAME);
        if (add_directory(&inputs, dir) != 0) {
            fprintf(stderr, "replay: seed corpus %s: %s\n", dir, strerror(errno));
            setup_failures++;
        }
        snprintf(dir, sizeof dir, "%s/fuzz/regressions/%s", top, FUZZ_TARGET_NAME);
        (void)add_directory(&inputs, dir);
        int missing = add_listed_seeds(&inputs, top);
        setup_failures += missing < 0 ? 1 : missing;
    }

    printf("1..%zu\n", inputs.count + (size_t)setup_failures);
    size_t number = 0;
    for (int i = 0; i < setup_failures; i++)
        printf("not ok %zu - %s: an input directory or listed seed is missing\n", ++number,
               FUZZ_TARGET_NAME);

    int failures = setup_failures;
    for (size_t i = 0; i < inputs.count; i++) {
        size_t size;
        printf("# input %s\n", inputs.paths[i]);
        fflush(stdout);
        uint8_t *data = read_file(inputs.paths[i], &size);
        if (!data) {
            printf("not ok %zu - %s: %s\n", ++number, inputs.paths[i], strerror(errno));
            failures++;
            free(inputs.paths[i]);
            continue;
        }
        LLVMFuzzerTestOneInput(data, size);
        free(data);
        printf("ok %zu - %s %s (%zu bytes)\n", ++number, FUZZ_TARGET_NAME, inputs.paths[i], size);
        free(inputs.paths[i]);
    }
    free(inputs.paths);
    return failures ? 1 : 0;
}
