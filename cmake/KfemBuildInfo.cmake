# Generates kfem/build_info.hpp at every build: git revision + dirty flag, compiler, flags, build type.
string(TOUPPER "${CMAKE_BUILD_TYPE}" CMAKE_BUILD_TYPE_UPPER)
set(KFEM_BUILD_INFO_DIR "${CMAKE_BINARY_DIR}/generated")
add_custom_target(kfem_build_info
  COMMAND ${CMAKE_COMMAND}
    -DSOURCE_DIR=${CMAKE_SOURCE_DIR}
    -DOUTPUT=${KFEM_BUILD_INFO_DIR}/kfem/build_info.hpp
    "-DCOMPILER=${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION} (${CMAKE_CXX_COMPILER})"
    "-DFLAGS=${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_${CMAKE_BUILD_TYPE_UPPER}}"
    -DBUILD_TYPE=${CMAKE_BUILD_TYPE}
    -DVERSION=${PROJECT_VERSION}
    -P ${CMAKE_CURRENT_LIST_DIR}/WriteBuildInfo.cmake
  BYPRODUCTS ${KFEM_BUILD_INFO_DIR}/kfem/build_info.hpp
  COMMENT "kfem build info" VERBATIM)
