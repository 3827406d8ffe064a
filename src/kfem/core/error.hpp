// One error type for bad input: says what went wrong and where (file, line, element).
#pragma once
#include <stdexcept>
#include <string>

namespace kfem {
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
}  // namespace kfem
