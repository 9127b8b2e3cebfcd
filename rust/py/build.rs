//! Makes the interpreter's cfgs (`Py_LIMITED_API`, `Py_3_14`, ...) visible
//! to this crate, as PyO3 sees them.

fn main() {
    pyo3_build_config::use_pyo3_cfgs();
}
