/*
 * check_docs.c - the docs and the programs agree: every program the
 * Makefile builds (tests/progs.h) has its `--help` text in exactly one
 * block of docs/ (a .md file),
 *
 *	<!-- help: bench/forkbomb (make docs) -->
 *	```
 *	usage: forkbomb [options]
 *	...
 *	```
 *	<!-- end help: bench/forkbomb -->
 *
 * without its "Common options:" paragraph, which is the "common" block,
 * once.  `make docs` (tools/doc-help.sh) rewrites the blocks; this suite
 * fails when one differs, is missing, or names no program.
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

static const char *const progs[] = {
#define PROG(p) p,
#include "progs.h"
#undef PROG
};
#define NPROGS (sizeof(progs) / sizeof(progs[0]))

#define BEGIN_MARK "<!-- help: "
#define BEGIN_TAIL " (make docs) -->"
#define END_MARK "<!-- end help: "

struct block {
	char key[128];
	char file[1024];
	int line;		/* of the begin marker */
	char *text;		/* between the fences, NULL: malformed */
};

static struct block *blocks;
static size_t nblocks;

/* Append @len bytes of @s to the malloc'd string *@buf. */
static void
append(char **buf, size_t *used, const char *s, size_t len)
{
	*buf = realloc(*buf, *used + len + 1);
	ck_assert_ptr_nonnull(*buf);
	memcpy(*buf + *used, s, len);
	*used += len;
	(*buf)[*used] = '\0';
}

/* The stdout of ./@prog --help, which must exit 0. */
static char *
run_help(const char *prog)
{
	char path[256], chunk[4096], *out = NULL;
	size_t used = 0;
	ssize_t n;
	int fd[2], status;
	pid_t pid;

	snprintf(path, sizeof(path), "./%s", prog);
	ck_assert_int_eq(pipe(fd), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		char *argv[] = { path, "--help", NULL };

		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		execv(path, argv);
		_exit(127);
	}
	close(fd[1]);
	append(&out, &used, "", 0);
	while ((n = read(fd[0], chunk, sizeof(chunk))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		ck_assert_int_gt(n, 0);
		append(&out, &used, chunk, (size_t)n);
	}
	close(fd[0]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "%s --help failed (status %d)", path, status);
	return out;
}

/*
 * Split @help into the program's own text (*@own: without the "Common
 * options:" paragraph and the blank line after it) and that paragraph
 * (*@common, "" when there is none).
 */
static void
split_help(const char *help, char **own, char **common)
{
	size_t oused = 0, cused = 0;
	const char *p = help;
	int in = 0;

	*own = NULL;
	*common = NULL;
	append(own, &oused, "", 0);
	append(common, &cused, "", 0);
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) + 1 : strlen(p);

		if (len == 16 && strncmp(p, "Common options:\n", 16) == 0)
			in = 1;
		if (in && len == 1)
			in = 0;		/* the blank line ending it: dropped */
		else if (in)
			append(common, &cused, p, len);
		else
			append(own, &oused, p, len);
		p += len;
	}
}

/* Read the blocks of one file into blocks[]. */
static void
read_blocks(const char *path)
{
	char line[4096];
	struct block *b = NULL;
	size_t used = 0;
	int n = 0, fence = 0;
	FILE *f = fopen(path, "r");

	ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		size_t len = strlen(line);

		n++;
		ck_assert_msg(len > 0 && line[len - 1] == '\n',
		    "%s:%d: line too long or no newline", path, n);
		if (strncmp(line, BEGIN_MARK, strlen(BEGIN_MARK)) == 0) {
			ck_assert_msg(b == NULL, "%s:%d: %s: a new block "
			    "before this one's end", path, n, b ? b->key : "");
			char *key = line + strlen(BEGIN_MARK);
			char *tail = strstr(key, BEGIN_TAIL);

			ck_assert_msg(tail && strcmp(tail, BEGIN_TAIL "\n")
			    == 0, "%s:%d: malformed marker", path, n);
			*tail = '\0';
			blocks = realloc(blocks, (nblocks + 1) *
			    sizeof(*blocks));
			ck_assert_ptr_nonnull(blocks);
			b = &blocks[nblocks++];
			ck_assert_uint_lt(strlen(key), sizeof(b->key));
			snprintf(b->key, sizeof(b->key), "%s", key);
			snprintf(b->file, sizeof(b->file), "%s", path);
			b->line = n;
			b->text = NULL;
			used = 0;
			fence = 0;
			append(&b->text, &used, "", 0);
			continue;
		}
		if (!b)
			continue;
		if (strncmp(line, END_MARK, strlen(END_MARK)) == 0) {
			ck_assert_msg(strncmp(line + strlen(END_MARK), b->key,
			    strlen(b->key)) == 0 && strcmp(line +
			    strlen(END_MARK) + strlen(b->key), " -->\n") == 0,
			    "%s:%d: the end of %s expected", path, n, b->key);
			ck_assert_msg(fence == 2, "%s:%d: %s: the block is "
			    "not one ``` fence", path, b->line, b->key);
			b = NULL;
			continue;
		}
		if (strcmp(line, "```\n") == 0) {
			fence++;
			continue;
		}
		ck_assert_msg(fence == 1, "%s:%d: %s: text outside the ``` "
		    "fence", path, n, b->key);
		append(&b->text, &used, line, len);
	}
	ck_assert_msg(!ferror(f), "%s: read error", path);
	fclose(f);
	ck_assert_msg(b == NULL, "%s:%d: %s: no end marker", path,
	    b ? b->line : 0, b ? b->key : "");
}

/* Every block of the .md files in @dir into blocks[]. */
static void
load_blocks(const char *dir)
{
	struct dirent *e;
	DIR *d = opendir(dir);

	ck_assert_msg(d != NULL, "%s: %s", dir, strerror(errno));
	for (size_t i = 0; i < nblocks; i++)
		free(blocks[i].text);
	nblocks = 0;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		char path[1024];

		if (len < 4 || strcmp(e->d_name + len - 3, ".md") != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		read_blocks(path);
	}
	closedir(d);
}

/* The one block named @key; fails when there is none or more than one. */
static const struct block *
find_block(const char *key, const char *dir)
{
	const struct block *found = NULL;

	for (size_t i = 0; i < nblocks; i++) {
		if (strcmp(blocks[i].key, key) != 0)
			continue;
		ck_assert_msg(found == NULL, "%s: two blocks, %s:%d and "
		    "%s:%d", key, found ? found->file : "",
		    found ? found->line : 0, blocks[i].file, blocks[i].line);
		found = &blocks[i];
	}
	ck_assert_msg(found != NULL, "%s: no block in %s (make docs "
	    "adds one)", key, dir);
	return found;
}

/* Fail at the first line where @b's text and @want differ. */
static void
same_text(const struct block *b, const char *want, const char *what)
{
	const char *p = b->text, *q = want;
	int n = b->line + 1;

	while (*p || *q) {
		size_t lp = strcspn(p, "\n"), lq = strcspn(q, "\n");

		n++;
		ck_assert_msg(lp == lq && strncmp(p, q, lp) == 0,
		    "%s:%d: %s says \"%.*s\", the block \"%.*s\" (make docs "
		    "rewrites the block)", b->file, n, what, (int)lq, q,
		    (int)lp, p);
		p += lp + (p[lp] == '\n');
		q += lq + (q[lq] == '\n');
	}
}

/* Each program's --help against the blocks of @dir. */
static void
check_dir(const char *dir)
{
	const struct block *common = NULL;

	load_blocks(dir);
	for (size_t i = 0; i < NPROGS; i++) {
		char *help = run_help(progs[i]), *own, *com, what[300];

		split_help(help, &own, &com);
		snprintf(what, sizeof(what), "%s --help", progs[i]);
		same_text(find_block(progs[i], dir), own, what);
		if (*com) {
			if (!common)
				common = find_block("common", dir);
			same_text(common, com, what);
		}
		free(help);
		free(own);
		free(com);
	}
	for (size_t i = 0; i < nblocks; i++) {
		int known = strcmp(blocks[i].key, "common") == 0 && common;

		for (size_t j = 0; j < NPROGS && !known; j++)
			known = strcmp(blocks[i].key, progs[j]) == 0;
		ck_assert_msg(known, "%s:%d: a block for %s, which is not a "
		    "program the Makefile builds", blocks[i].file,
		    blocks[i].line, blocks[i].key);
	}
}

START_TEST(help_in_docs)
{
	ck_assert_uint_ge(NPROGS, 2);
	check_dir("docs");
}
END_TEST

/*
 * Copy docs/@name to tu_dir, replacing the first @from by @to (when
 * @from is given).
 */
static void
copy_doc(const char *name, const char *from, const char *to)
{
	char src[512], dst[512], *text;
	FILE *g;

	snprintf(src, sizeof(src), "docs/%s", name);
	text = tu_slurp_ok("%s", src);
	snprintf(dst, sizeof(dst), "%s/%s", tu_dir, name);
	g = fopen(dst, "w");
	ck_assert_ptr_nonnull(g);
	if (from) {
		char *at = strstr(text, from);

		ck_assert_msg(at != NULL, "%s: no \"%s\"", src, from);
		fwrite(text, 1, (size_t)(at - text), g);
		fputs(to, g);
		fputs(at + strlen(from), g);
	} else {
		fputs(text, g);
	}
	ck_assert_int_eq(fclose(g), 0);
	free(text);
}

/* Run tools/doc-help.sh on tu_dir's copies; its exit status. */
static int
run_generator(void)
{
	int status;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		char *argv[NPROGS + 4];
		size_t n = 0;
		int null = open("/dev/null", O_WRONLY);

		argv[n++] = "sh";
		argv[n++] = "tools/doc-help.sh";
		for (size_t i = 0; i < NPROGS; i++)
			argv[n++] = (char *)progs[i];
		argv[n] = NULL;
		dup2(null, 1);
		dup2(null, 2);
		setenv("DOCS", tu_dir, 1);
		execvp("sh", argv);
		_exit(127);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/*
 * make docs repairs what this suite finds: a block changed, a program
 * with no block at all (it gets one at the end of benchmarks.md).
 */
START_TEST(generator_repairs)
{
	struct dirent *e;
	DIR *d = opendir("docs");
	char path[600], *text;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (len < 4 || strcmp(e->d_name + len - 3, ".md") != 0 ||
		    strcmp(e->d_name, "benchmarks.md") == 0)
			continue;
		copy_doc(e->d_name, NULL, NULL);
	}
	closedir(d);
	/* forkbomb's block made into something else; the common block's
	 * first line changed */
	copy_doc("benchmarks.md", "<!-- help: bench/forkbomb (make docs)",
	    "<!-- moved: bench/forkbomb (make docs)");
	snprintf(path, sizeof(path), "%s/benchmarks.md", tu_dir);
	text = tu_slurp_ok("%s", path);
	tu_assert_has(text, "\nCommon options:\n");
	memcpy(strstr(text, "\nCommon options:\n") + 1, "c", 1);
	{
		FILE *f = fopen(path, "w");

		ck_assert_ptr_nonnull(f);
		fputs(text, f);
		ck_assert_int_eq(fclose(f), 0);
	}
	free(text);
	ck_assert_int_eq(run_generator(), 0);
	check_dir(tu_dir);
	text = tu_slurp_ok("%s", path);
	tu_assert_has(text, "\n## forkbomb\n\n"
	    "<!-- help: bench/forkbomb (make docs) -->\n```\nusage: ");
	free(text);
}
END_TEST

/* A block naming no program, or not closed, stops make docs. */
START_TEST(generator_refuses)
{
	copy_doc("benchmarks.md", "<!-- help: bench/forkbomb (make docs)",
	    "<!-- help: bench/nosuch (make docs) -->\n<!-- end help: "
	    "bench/nosuch -->\n<!-- help: bench/forkbomb (make docs)");
	ck_assert_int_ne(run_generator(), 0);
	copy_doc("benchmarks.md", "<!-- end help: bench/forkbomb -->", "");
	ck_assert_int_ne(run_generator(), 0);
}
END_TEST

Suite *
docs_suite(void)
{
	Suite *s = suite_create("docs");
	TCase *tc = tu_tcase_local("help");

	/*
	 * Every program's --help, then the generator over all of them:
	 * seconds when forks and page faults are slow, over Check's 4 s.
	 */
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, help_in_docs);
	suite_add_tcase(s, tc);
	tc = tu_tcase_local("generator");
	tcase_set_timeout(tc, 60);
	tcase_add_unchecked_fixture(tc, tu_mktmp, tu_rmtmp);
	tcase_add_test(tc, generator_repairs);
	tcase_add_test(tc, generator_refuses);
	suite_add_tcase(s, tc);
	return s;
}
