// SPDX-License-Identifier: LGPL-2.1-or-later
/* The walk's progress line (progress.h). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "out.h"
#include "progress.h"

#define FIRST_NS	1000000000LL	/* nothing for walks shorter */
#define EVERY_NS	250000000LL

struct progress {
	atomic_ulong	entries, dirs, errors;
	pthread_mutex_t	lock;
	pthread_cond_t	wake;
	bool		done;		/* (lock) */
	pthread_t	tid;
	long long	start;
};

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void draw(struct progress *p)
{
	double secs = (double)(now_ns() - p->start) / 1e9;
	unsigned long n = atomic_load_explicit(&p->entries,
					       memory_order_relaxed);
	char line[160];

	snprintf(line, sizeof(line),
		 "%lu entries, %lu directories, %lu errors, %.0f entries/s",
		 n, atomic_load_explicit(&p->dirs, memory_order_relaxed),
		 atomic_load_explicit(&p->errors, memory_order_relaxed),
		 secs > 0 ? (double)n / secs : 0.0);
	out_status(line);
}

static void *drawer(void *arg)
{
	struct progress *p = arg;
	long long next = p->start + FIRST_NS;
	struct timespec ts;

	pthread_mutex_lock(&p->lock);
	while (!p->done) {
		ts.tv_sec = (time_t)(next / 1000000000LL);
		ts.tv_nsec = (long)(next % 1000000000LL);
		if (pthread_cond_timedwait(&p->wake, &p->lock, &ts) == 0 ||
		    p->done)
			continue;
		if (now_ns() < next)
			continue;
		pthread_mutex_unlock(&p->lock);
		draw(p);
		pthread_mutex_lock(&p->lock);
		next += EVERY_NS;
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

struct progress *progress_start(void)
{
	struct progress *p = calloc(1, sizeof(*p));
	pthread_condattr_t ca;

	if (!p)
		return NULL;	/* no line: the walk goes on */
	pthread_mutex_init(&p->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&p->wake, &ca);
	pthread_condattr_destroy(&ca);
	p->start = now_ns();
	if (pthread_create(&p->tid, NULL, drawer, p) != 0) {
		pthread_cond_destroy(&p->wake);
		pthread_mutex_destroy(&p->lock);
		free(p);
		return NULL;
	}
	return p;
}

void progress_add(struct progress *p, unsigned long entries,
		  unsigned long dirs, unsigned long errors)
{
	if (!p)
		return;
	atomic_fetch_add_explicit(&p->entries, entries, memory_order_relaxed);
	atomic_fetch_add_explicit(&p->dirs, dirs, memory_order_relaxed);
	if (errors)
		atomic_fetch_add_explicit(&p->errors, errors,
					  memory_order_relaxed);
}

void progress_stop(struct progress *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->done = true;
	pthread_cond_signal(&p->wake);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->tid, NULL);
	out_status(NULL);
	pthread_cond_destroy(&p->wake);
	pthread_mutex_destroy(&p->lock);
	free(p);
}
