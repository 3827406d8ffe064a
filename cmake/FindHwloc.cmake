# Finds hwloc (headers + library) and defines Hwloc::hwloc.
find_path(Hwloc_INCLUDE_DIR hwloc.h)
find_library(Hwloc_LIBRARY NAMES hwloc)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Hwloc REQUIRED_VARS Hwloc_LIBRARY Hwloc_INCLUDE_DIR)
if(Hwloc_FOUND AND NOT TARGET Hwloc::hwloc)
  add_library(Hwloc::hwloc UNKNOWN IMPORTED)
  set_target_properties(Hwloc::hwloc PROPERTIES IMPORTED_LOCATION "${Hwloc_LIBRARY}"
                                                INTERFACE_INCLUDE_DIRECTORIES "${Hwloc_INCLUDE_DIR}")
endif()
mark_as_advanced(Hwloc_INCLUDE_DIR Hwloc_LIBRARY)
