// What every axis' contract checks alike (assembly/mapping_traits.hpp, solve/solver.hpp): a tag of
// a registry names itself and says what it does in one line.
#pragma once
#include <string>
#include <type_traits>

namespace kfem::contract {
template <class T, class = void>
struct has_name_and_help : std::false_type {};
template <class T>
struct has_name_and_help<T, std::void_t<decltype(std::string(T::name)), decltype(std::string(T::help))>>
    : std::true_type {};
}  // namespace kfem::contract
