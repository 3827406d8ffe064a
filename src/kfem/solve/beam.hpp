// Moved: timoshenko_tip_deflection lives in problems/cantilever.hpp. Kept so existing includes compile.
#pragma once
#include "kfem/problems/cantilever.hpp"
