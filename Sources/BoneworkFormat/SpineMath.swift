import Foundation

/// The reference runtime's float maths, reproduced operation for operation: it multiplies in
/// float, evaluates sin/cos/atan2 in double and rounds back to float. Discrete results in the
/// reference traces sit on float ties, so approximations are not good enough.
public enum SpineMath {
    public static let pi: Float = 3.1415926535897932385
    public static let pi2: Float = pi * 2
    public static let degRad: Float = 3.1415926535897932385 / 180
    public static let radDeg: Float = 180 / 3.1415926535897932385

    @inline(__always) public static func sinDeg(_ degrees: Float) -> Float {
        Float(Foundation.sin(Double(degrees * degRad)))
    }
    @inline(__always) public static func cosDeg(_ degrees: Float) -> Float {
        Float(Foundation.cos(Double(degrees * degRad)))
    }
    @inline(__always) public static func sin(_ radians: Float) -> Float { Float(Foundation.sin(Double(radians))) }
    @inline(__always) public static func cos(_ radians: Float) -> Float { Float(Foundation.cos(Double(radians))) }
    @inline(__always) public static func atan2(_ y: Float, _ x: Float) -> Float {
        Float(Foundation.atan2(Double(y), Double(x)))
    }
    @inline(__always) public static func atan2Deg(_ y: Float, _ x: Float) -> Float {
        Float(Foundation.atan2(Double(y), Double(x))) * radDeg
    }
}
