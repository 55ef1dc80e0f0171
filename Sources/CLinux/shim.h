// CLinux: the Linux calls Swift's Glibc module does not bring in (timerfd, signalfd, eventfd).
#ifndef QUICKSILVER_CLINUX_SHIM_H
#define QUICKSILVER_CLINUX_SHIM_H
#include <poll.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>
#endif
