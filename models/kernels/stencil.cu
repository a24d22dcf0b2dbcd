// stencil.cu — one time step of a hotspot-like 2-D 5-point stencil on a rows x cols grid:
//   out = in + step * (power + k * (north + south + east + west - 4 in))
// Edge cells reuse their own value for the missing neighbour. The host ping-pongs in and out.

extern "C" __global__ void stencil_step(const float *in, const float *power, float *out,
                                        unsigned rows, unsigned cols, float step, float k)
{
    unsigned c = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r >= rows || c >= cols)
        return;
    unsigned i = r * cols + c;
    float centre = in[i];
    float north = r > 0 ? in[i - cols] : centre;
    float south = r + 1 < rows ? in[i + cols] : centre;
    float west = c > 0 ? in[i - 1] : centre;
    float east = c + 1 < cols ? in[i + 1] : centre;
    out[i] = centre + step * (power[i] + k * (north + south + east + west - 4.0f * centre));
}
