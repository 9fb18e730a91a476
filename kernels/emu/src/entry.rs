//! Kernels callable by name with CUDA's launch convention: `kernelParams`, an array of
//! pointers to each argument's value. A driver that receives `cuLaunchKernel` needs the
//! argument sizes (to keep copies of the values, as a graph capture does) and a call that
//! reads the values back with the types the `.cu` signature declares.

use std::ffi::c_void;

/// One kernel entry point of the emulated sources.
#[derive(Debug)]
pub struct EntryPoint {
    /// The `extern "C"` name, as `cuModuleGetFunction` asks for it.
    pub name: &'static str,
    /// `size_of` each parameter, in order.
    pub param_sizes: &'static [usize],
    /// Calls the kernel with the values `params[i]` point to (one thread of a launch: call it
    /// inside [`crate::launch`]).
    pub invoke: unsafe fn(params: *const *mut c_void),
}

/// Declares `extern "C"` kernels and a table `$table: &[EntryPoint]` of them.
macro_rules! entry_points {
    ($table:ident; $(pub fn $name:ident($($arg:ident: $ty:ty),* $(,)?);)*) => {
        extern "C" {
            $(pub fn $name($($arg: $ty),*);)*
        }

        #[allow(dead_code)] // the probes' table is only declared
        const $table: &[EntryPoint] = &[$(EntryPoint {
            name: stringify!($name),
            param_sizes: &[$(std::mem::size_of::<$ty>()),*],
            invoke: {
                /// # Safety
                /// `params` holds one pointer per parameter, each to a value of its type.
                unsafe fn invoke(params: *const *mut std::ffi::c_void) {
                    let mut _next = params;
                    $(
                        // SAFETY: the caller passes one valid pointer per parameter.
                        let $arg = unsafe {
                            let value = std::ptr::read_unaligned(*_next as *const $ty);
                            _next = _next.add(1);
                            value
                        };
                    )*
                    // SAFETY: the arguments are the launch's, as a GPU would pass them.
                    unsafe { $name($($arg),*) }
                }
                invoke
            },
        }),*];
    };
}
pub(crate) use entry_points;
