// nn.cu — Rodinia-style nearest neighbour: the distance of every record (latitude, longitude)
// to one target. A pure stream: each record is read once and each distance written once, in
// whole lines (the QuickRelease paper's example of full-line, write-once output).

struct lat_long {
    float lat, lng;
};

extern "C" __global__ void nn_distances(const lat_long *records, float *distances, unsigned n, float lat,
                                        float lng)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float dlat = lat - records[i].lat, dlng = lng - records[i].lng;
        distances[i] = sqrtf(dlat * dlat + dlng * dlng);
    }
}
