/// Something whose attributes are set through typed keys: a ``ManagedObject``, or a row of a
/// ``BatchUpsert``. Code that fills in an entity's attributes (an importer's mapping) is
/// written once against it and serves both the object path and the bulk path.
public protocol AttributeSettable {
    /// Reads or writes an attribute.
    subscript<Value: AttributeValue>(_ attribute: Attribute<Value>) -> Value { get set }
}

extension ManagedObject: AttributeSettable {}

extension BatchUpsert.Row: AttributeSettable {}
