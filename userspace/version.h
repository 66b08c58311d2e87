/* SPDX-License-Identifier: GPL-2.0 */
/*
 * version.h: the one place of the logdev tools' version (logdev --version,
 * which also names the record and capture format versions it reads:
 * LOGDEV_FORMAT_VERSION in include/uapi/linux/logdev.h, LGD_CAP_VERSION in
 * capture.h).
 */
#ifndef LOGDEV_VERSION_H
#define LOGDEV_VERSION_H

#define LOGDEV_VERSION	"0.8.0"

#endif /* LOGDEV_VERSION_H */
