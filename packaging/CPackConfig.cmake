# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The tpscope authors
# Debian package: `cpack -G DEB` in a build folder writes tpscope_<version>_<arch>.deb holding both
# executables, their man pages, the desktop entry, the icon, the AppStream metainfo and the MIME type
# of .tpscope workspaces. Runtime dependencies come from dpkg-shlibdeps (Debian 12's Qt 6,
# QCustomPlot, SQLite, zlib, simdjson), never from a hand-written list. The version is
# project(VERSION) in the top CMakeLists.txt, the one place it is set.
#
# A build with the CUDA backend (TPSCOPE_HAVE_CUDA) puts the GPU capture into the same package; its
# CUDA, cuBLAS, CUPTI and NCCL libraries come from NVIDIA's packages, which dpkg-shlibdeps cannot
# name, so docs/guide.md ("Install") lists them. Release packages for machines without a GPU are
# built with -DTPSCOPE_WITH_CUDA=OFF.

set(CPACK_GENERATOR "DEB")
# The date of this version, for the AppStream release entry and the Debian changelog (RFC 2822).
set(TPSCOPE_RELEASE_DATE 2026-11-30)
set(TPSCOPE_RELEASE_DATE_RFC2822 "Mon, 30 Nov 2026 12:00:00 +0000")
set(CPACK_PACKAGE_NAME "tpscope")
set(CPACK_PACKAGE_VENDOR "tpscope developers")
set(CPACK_PACKAGE_CONTACT "tpscope developers <tpscope@users.noreply.github.com>")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "profiler for tensor-parallel LLM decode")
set(CPACK_PACKAGE_DESCRIPTION_FILE ${PROJECT_SOURCE_DIR}/packaging/description.txt)
set(CPACK_PACKAGE_HOMEPAGE_URL "https://github.com/tpscope/tpscope")
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${CPACK_PACKAGE_CONTACT}")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
# Files under /usr/share (and their folders) owned by root with 0644/0755, as Debian policy asks.
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
    WORLD_READ WORLD_EXECUTE)

# Debian's per-package documents: the copyright file (plain) and the changelog (gzip -9n, as a native package).
set(TPSCOPE_PACKAGING_OUT ${PROJECT_BINARY_DIR}/packaging)
configure_file(${PROJECT_SOURCE_DIR}/packaging/changelog.in ${TPSCOPE_PACKAGING_OUT}/changelog @ONLY)
add_custom_command(
  OUTPUT ${TPSCOPE_PACKAGING_OUT}/changelog.gz
  COMMAND gzip -9n -c ${TPSCOPE_PACKAGING_OUT}/changelog > ${TPSCOPE_PACKAGING_OUT}/changelog.gz
  DEPENDS ${TPSCOPE_PACKAGING_OUT}/changelog
  VERBATIM)

# Man pages from the executables' own --help (packaging/man.cmake), so they never drift from the code.
find_program(TPSCOPE_HELP2MAN help2man)
set(TPSCOPE_MAN_PAGES)
if(TPSCOPE_HELP2MAN)
  set(TPSCOPE_MAN_TARGETS tpscope-cli)
  if(TARGET tpscope)
    list(APPEND TPSCOPE_MAN_TARGETS tpscope)
  endif()
  foreach(exe IN LISTS TPSCOPE_MAN_TARGETS)
    set(page ${TPSCOPE_PACKAGING_OUT}/${exe}.1.gz)
    add_custom_command(
      OUTPUT ${page}
      COMMAND ${CMAKE_COMMAND} -DHELP2MAN=${TPSCOPE_HELP2MAN} -DEXE=$<TARGET_FILE:${exe}> -DNAME=${exe}
              -DVERSION=${PROJECT_VERSION} -DOUT=${page} -P ${PROJECT_SOURCE_DIR}/packaging/man.cmake
      DEPENDS ${exe} ${PROJECT_SOURCE_DIR}/packaging/man.cmake
      COMMENT "Man page ${exe}.1 from ${exe} --help"
      VERBATIM)
    list(APPEND TPSCOPE_MAN_PAGES ${page})
  endforeach()
  install(FILES ${TPSCOPE_MAN_PAGES} DESTINATION share/man/man1)
else()
  message(STATUS "tpscope: help2man not found, the package will have no man pages")
endif()
add_custom_target(tpscope_package_files ALL DEPENDS ${TPSCOPE_PACKAGING_OUT}/changelog.gz ${TPSCOPE_MAN_PAGES})

install(FILES ${TPSCOPE_PACKAGING_OUT}/changelog.gz ${PROJECT_SOURCE_DIR}/packaging/copyright
        DESTINATION share/doc/tpscope)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/io.github.tpscope.desktop DESTINATION share/applications)
configure_file(${PROJECT_SOURCE_DIR}/packaging/io.github.tpscope.metainfo.xml.in
               ${TPSCOPE_PACKAGING_OUT}/io.github.tpscope.metainfo.xml @ONLY)
install(FILES ${TPSCOPE_PACKAGING_OUT}/io.github.tpscope.metainfo.xml DESTINATION share/metainfo)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/tpscope-mime.xml DESTINATION share/mime/packages RENAME tpscope.xml)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/icons/tpscope.svg
        DESTINATION share/icons/hicolor/scalable/apps RENAME io.github.tpscope.svg)
foreach(size 48 64 128 256)
  install(FILES ${PROJECT_SOURCE_DIR}/packaging/icons/tpscope-${size}.png
          DESTINATION share/icons/hicolor/${size}x${size}/apps RENAME io.github.tpscope.png)
endforeach()
include(CPack)
