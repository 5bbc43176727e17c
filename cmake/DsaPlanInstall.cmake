# Install rules and the DsaPlan CMake package (DsaPlanConfig.cmake with
# exported targets). The solver has its own export set so that a consumer
# that wants only the solver never needs MLIR.

include(CMakePackageConfigHelpers)
set(DSAPLAN_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/DsaPlan)

set_target_properties(DsaPlanSolver PROPERTIES EXPORT_NAME Solver)
install(TARGETS DsaPlanSolver EXPORT DsaPlanSolverTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${DSAPLAN_SOURCE_DIR}/include/DsaPlan/Solver
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/DsaPlan)
install(EXPORT DsaPlanSolverTargets NAMESPACE DsaPlan::
  DESTINATION ${DSAPLAN_CMAKE_DIR})
if(TARGET dsa-solve)
  install(TARGETS dsa-solve RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

if(DSAPLAN_ENABLE_MLIR)
  set_target_properties(DsaPlanDialect PROPERTIES EXPORT_NAME Dialect)
  set_target_properties(DsaPlanAnalysis PROPERTIES EXPORT_NAME Analysis)
  set_target_properties(DsaPlanSupport PROPERTIES EXPORT_NAME Support)
  set_target_properties(DsaPlanSyncInsert PROPERTIES EXPORT_NAME SyncInsert)
  set_target_properties(DsaPlanSyncVerify PROPERTIES EXPORT_NAME SyncVerify)
  set_target_properties(DsaPlanSyncSimulate PROPERTIES EXPORT_NAME SyncSimulate)
  set_target_properties(DsaPlanTransforms PROPERTIES EXPORT_NAME Transforms)
  install(TARGETS DsaPlanDialect DsaPlanSupport DsaPlanAnalysis
    DsaPlanSyncInsert DsaPlanSyncVerify DsaPlanSyncSimulate DsaPlanTransforms
    EXPORT DsaPlanMLIRTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(TARGETS dsa-opt RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  foreach(_dir Dialect Support Analysis Sync Transforms)
    install(DIRECTORY ${DSAPLAN_SOURCE_DIR}/include/DsaPlan/${_dir}
      DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/DsaPlan
      FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
    install(DIRECTORY ${DSAPLAN_BINARY_DIR}/include/DsaPlan/${_dir}
      DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/DsaPlan
      FILES_MATCHING PATTERN "*.inc")
  endforeach()
  install(EXPORT DsaPlanMLIRTargets NAMESPACE DsaPlan::
    DESTINATION ${DSAPLAN_CMAKE_DIR})
endif()

configure_package_config_file(
  ${DSAPLAN_SOURCE_DIR}/cmake/DsaPlanConfig.cmake.in
  ${DSAPLAN_BINARY_DIR}/cmake/DsaPlanConfig.cmake
  INSTALL_DESTINATION ${DSAPLAN_CMAKE_DIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR)
write_basic_package_version_file(
  ${DSAPLAN_BINARY_DIR}/cmake/DsaPlanConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${DSAPLAN_BINARY_DIR}/cmake/DsaPlanConfig.cmake
  ${DSAPLAN_BINARY_DIR}/cmake/DsaPlanConfigVersion.cmake
  DESTINATION ${DSAPLAN_CMAKE_DIR})
