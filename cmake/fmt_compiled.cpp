// fmt's compiled part, for the static build (CGBENCH_STATIC) with fmt 9.1: Debian and Ubuntu
// ship fmt only as a shared library, and fmt used header-only compiles its formatting core
// into every file that formats (twice the CPU time of the whole build). This file is what
// fmt 9.1's own src/format.cc holds: format-inl.h's functions, defined once, and the
// templates fmt.h declares but does not define, instantiated.

#include <fmt/format-inl.h>

#if FMT_VERSION / 100 != 901
#error "cmake/fmt_compiled.cpp is fmt 9.1's format.cc; other versions build fmt header-only"
#endif

FMT_BEGIN_NAMESPACE
namespace detail {

template FMT_API auto dragonbox::to_decimal(float x) noexcept -> dragonbox::decimal_fp<float>;
template FMT_API auto dragonbox::to_decimal(double x) noexcept -> dragonbox::decimal_fp<double>;

#ifndef FMT_STATIC_THOUSANDS_SEPARATOR
template FMT_API locale_ref::locale_ref(const std::locale& loc);
template FMT_API auto locale_ref::get<std::locale>() const -> std::locale;
#endif

template FMT_API auto thousands_sep_impl(locale_ref) -> thousands_sep_result<char>;
template FMT_API auto decimal_point_impl(locale_ref) -> char;
template FMT_API void buffer<char>::append(const char*, const char*);
template FMT_API void vformat_to(buffer<char>&, string_view,
                                 basic_format_args<FMT_BUFFER_CONTEXT(char)>, locale_ref);

template FMT_API auto thousands_sep_impl(locale_ref) -> thousands_sep_result<wchar_t>;
template FMT_API auto decimal_point_impl(locale_ref) -> wchar_t;
template FMT_API void buffer<wchar_t>::append(const wchar_t*, const wchar_t*);

}  // namespace detail
FMT_END_NAMESPACE
