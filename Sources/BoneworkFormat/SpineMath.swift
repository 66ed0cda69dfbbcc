import Foundation

/// The reference runtime's float maths, reproduced operation for operation: it multiplies in
/// float, evaluates sin/cos/atan2 in double and rounds back to float. Discrete results in the
/// reference traces sit on float ties, so approximations are not good enough.
public enum SpineMath {
    /// π as a float.
    public static let pi: Float = 3.1415926535897932385
    /// 2π as a float.
    public static let pi2: Float = pi * 2
    /// Radians per degree.
    public static let degRad: Float = 3.1415926535897932385 / 180
    /// Degrees per radian.
    public static let radDeg: Float = 180 / 3.1415926535897932385

    /// The sine of an angle in degrees, computed as the reference does.
    @inline(__always) public static func sinDeg(_ degrees: Float) -> Float {
        Float(Foundation.sin(Double(degrees * degRad)))
    }
    /// The cosine of an angle in degrees, computed as the reference does.
    @inline(__always) public static func cosDeg(_ degrees: Float) -> Float {
        Float(Foundation.cos(Double(degrees * degRad)))
    }
    /// The sine of `radians`, evaluated in double and rounded to float.
    @inline(__always) public static func sin(_ radians: Float) -> Float { Float(Foundation.sin(Double(radians))) }
    /// The cosine of `radians`, evaluated in double and rounded to float.
    @inline(__always) public static func cos(_ radians: Float) -> Float { Float(Foundation.cos(Double(radians))) }
    /// The angle of (x, y) in radians, evaluated in double and rounded to float.
    @inline(__always) public static func atan2(_ y: Float, _ x: Float) -> Float {
        Float(Foundation.atan2(Double(y), Double(x)))
    }
    /// The angle of (x, y) in degrees, as the reference computes it.
    @inline(__always) public static func atan2Deg(_ y: Float, _ x: Float) -> Float {
        Float(Foundation.atan2(Double(y), Double(x))) * radDeg
    }
}
