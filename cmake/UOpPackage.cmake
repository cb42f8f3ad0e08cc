# Installs headers (source and generated), the exported library targets and
# UOpConfig.cmake so that an external project can `find_package(UOp)`.
include(CMakePackageConfigHelpers)

install(DIRECTORY include/uop-c DESTINATION include FILES_MATCHING PATTERN "*.h")
install(DIRECTORY include/uop DESTINATION include
        FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/uop DESTINATION include
        FILES_MATCHING PATTERN "*.inc")
install(EXPORT UOpTargets NAMESPACE UOp:: DESTINATION lib/cmake/UOp)

configure_package_config_file(cmake/UOpConfig.cmake.in
  ${PROJECT_BINARY_DIR}/UOpConfig.cmake INSTALL_DESTINATION lib/cmake/UOp)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/UOpConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/UOpConfig.cmake ${PROJECT_BINARY_DIR}/UOpConfigVersion.cmake
        DESTINATION lib/cmake/UOp)
