"""Models with Field descriptions, order row first, status from the row."""

from pydantic import BaseModel, Field

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers import orders


class Scan(BaseModel):
    at: str = Field(description="When")
    location: str
    description: str


class ParcelStatus(BaseModel):
    order_number: str
    status: orders.Status
    carrier: str
    tracking_code: str
    expected_delivery: str = Field(description="ISO date")
    latest_scan: Scan


def answer():
    store = orders.OrderStore()
    server = MCPServer("tracking", log_level="WARNING")

    @server.tool(description="Latest tracking of one of the customer's orders.")
    def track_order(order_number: str) -> ParcelStatus:
        row = orders.customer_order(store, order_number)
        rec = store.shipment(row.order_number)
        if not rec:
            raise ToolError(f"No tracking for {order_number} yet: it has not shipped (due {row.expected_delivery}).")
        last = rec.scans[len(rec.scans) - 1]
        return ParcelStatus(order_number=row.order_number, status=row.status, carrier=rec.carrier,
                            tracking_code=rec.tracking_code, expected_delivery=row.expected_delivery,
                            latest_scan=Scan(**last.model_dump(include={"at", "location", "description"})))

    return server
