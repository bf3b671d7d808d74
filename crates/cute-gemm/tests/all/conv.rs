//! `conv2d` against the direct convolution.
