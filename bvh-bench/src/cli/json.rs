//! JSON output: one record per line, written by serde from the subcommands' record types, with
//! measured figures rounded to the digits that carry information.

use serde::Serialize;

/// Prints `record` as one line of JSON.
pub(crate) fn print_line(record: &impl Serialize) -> Result<(), String> {
    println!("{}", serde_json::to_string(record).map_err(|e| e.to_string())?);
    Ok(())
}

/// `x` rounded to `decimals` places.
pub(crate) fn fixed(x: f64, decimals: i32) -> f64 {
    let scale = 10f64.powi(decimals);
    if x.is_finite() { (x * scale).round() / scale } else { x }
}

/// `x` rounded to `digits` significant digits.
pub(crate) fn significant(x: f64, digits: i32) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    fixed(x, digits - 1 - x.abs().log10().floor() as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_keeps_the_digits_asked_for() {
        assert_eq!(fixed(42.49149, 3), 42.491);
        assert_eq!(fixed(-0.00049, 3), -0.0);
        assert_eq!(significant(6.264683e2, 7), 626.4683);
        assert_eq!(significant(1.23456e-7, 3), 1.23e-7);
        assert!(significant(f64::NAN, 3).is_nan());
        assert_eq!(serde_json::to_string(&fixed(0.1 + 0.2, 3)).unwrap(), "0.3");
    }
}
